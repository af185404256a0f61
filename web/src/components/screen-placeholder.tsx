import type { LucideIcon } from 'lucide-react';
import { PageHeader } from '@/components/page-header';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';

interface Panel {
  title: string;
  description: string;
}

/**
 * The layout of a studio screen whose working parts ship with a later release: its title and its columns
 * (e.g. form and preview), each saying what it will hold.
 */
export function ScreenPlaceholder({
  title,
  description,
  icon: Icon,
  panels,
}: {
  title: string;
  description: string;
  icon: LucideIcon;
  panels: readonly Panel[];
}) {
  const columns = panels.length >= 3 ? 'lg:grid-cols-3' : panels.length === 2 ? 'lg:grid-cols-2' : '';
  return (
    <>
      <PageHeader title={title} description={description} />
      <div className={`grid gap-6 ${columns}`}>
        {panels.map((panel) => (
          <Card key={panel.title} className="min-h-64">
            <CardHeader>
              <CardTitle>{panel.title}</CardTitle>
              <CardDescription>{panel.description}</CardDescription>
            </CardHeader>
            <CardContent className="flex flex-col items-center justify-center gap-3 py-10 text-center text-slate-600">
              <Icon className="h-10 w-10 text-slate-400" aria-hidden="true" />
              <p className="text-sm">Available in an upcoming release.</p>
            </CardContent>
          </Card>
        ))}
      </div>
    </>
  );
}
