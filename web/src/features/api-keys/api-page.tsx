import { Copy, Eye, EyeOff, KeyRound, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input, Label } from '@/components/ui/field';
import { ScrollRegion } from '@/components/ui/scroll-region';
import { formatDateTime } from '@/lib/format';
import { useSession } from '@/lib/session-context';
import { generateApiKey, maskKey, type ApiKey } from './api-key';
import { WebhooksPanel } from './webhooks-panel';

export default function ApiPage() {
  const { config } = useSession();
  const [keys, setKeys] = useState<ApiKey[]>([]);
  const [name, setName] = useState('');
  const [revealed, setRevealed] = useState<string | null>(null);

  const onGenerate = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const key = generateApiKey(name.trim() || `Key ${keys.length + 1}`);
    setKeys((current) => [key, ...current]);
    setRevealed(key.id);
    setName('');
    toast.success('API key generated', { description: 'Copy it now: keys are not saved and disappear when you leave this page.' });
  };

  const copy = async (key: ApiKey) => {
    try {
      await navigator.clipboard.writeText(key.key);
      toast.success('Copied', { description: `${key.name} is on your clipboard.` });
    } catch {
      toast.error('Error', { description: 'The key could not be copied. Select it and copy it by hand.' });
    }
  };

  return (
    <div className="space-y-8">
      <PageHeader title="API" description="Generate keys and call ModelLoop from your own code." />
      <p className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
        API keys are a preview: they are generated in your browser, are not saved, and cannot call the API yet.
      </p>

      <Card>
        <CardHeader>
          <CardTitle>API keys</CardTitle>
          <CardDescription>Keys start with ml_ followed by random characters.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-6">
          <form onSubmit={onGenerate} className="flex flex-col gap-3 sm:flex-row sm:items-end">
            <div className="flex-1">
              <Label htmlFor="key-name">Key name</Label>
              <Input id="key-name" value={name} onChange={(event) => setName(event.target.value)} placeholder="e.g. Shopify sync" maxLength={60} />
            </div>
            <Button type="submit">
              <KeyRound className="h-4 w-4" aria-hidden="true" /> Generate key
            </Button>
          </form>
          {keys.length === 0 ? (
            <p className="text-slate-700">No API keys yet.</p>
          ) : (
            <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200" aria-label="Generated API keys">
              {keys.map((key) => (
                <li key={key.id} className="flex flex-col gap-3 p-4 md:flex-row md:items-center md:justify-between">
                  <div className="min-w-0">
                    <p className="font-medium text-slate-900">{key.name}</p>
                    <code className="block break-all font-mono text-sm text-slate-700" data-testid="api-key-value">
                      {revealed === key.id ? key.key : maskKey(key.key)}
                    </code>
                    <p className="mt-1 text-xs text-slate-600">
                      Created {formatDateTime(key.createdAt)} · Last used {key.lastUsed ? formatDateTime(key.lastUsed) : 'never'}
                    </p>
                  </div>
                  <div className="flex gap-2">
                    <Button
                      variant="outline"
                      size="icon"
                      aria-label={revealed === key.id ? `Hide ${key.name}` : `Show ${key.name}`}
                      onClick={() => setRevealed(revealed === key.id ? null : key.id)}
                    >
                      {revealed === key.id ? <EyeOff className="h-4 w-4" aria-hidden="true" /> : <Eye className="h-4 w-4" aria-hidden="true" />}
                    </Button>
                    <Button variant="outline" size="icon" aria-label={`Copy ${key.name}`} onClick={() => void copy(key)}>
                      <Copy className="h-4 w-4" aria-hidden="true" />
                    </Button>
                    <Button
                      variant="outline"
                      size="icon"
                      aria-label={`Delete ${key.name}`}
                      onClick={() => setKeys((current) => current.filter((entry) => entry.id !== key.id))}
                    >
                      <Trash2 className="h-4 w-4 text-red-600" aria-hidden="true" />
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Quick start</CardTitle>
          <CardDescription>Every request carries your key as a bearer token.</CardDescription>
        </CardHeader>
        <CardContent>
          <ScrollRegion label="Quick start example" className="rounded-lg bg-slate-900 p-4">
            <pre className="text-sm text-slate-100">
              <code>{`curl ${config.apiUrl.replace(/\/+$/, '')}/pricing-tiers \\
  -H "Authorization: Bearer ml_your_key_here"`}</code>
            </pre>
          </ScrollRegion>
        </CardContent>
      </Card>
      <WebhooksPanel />
    </div>
  );
}
