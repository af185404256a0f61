import { useMutation } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { downloadFile } from '@/lib/downloads';
import { exportAccountData } from './api';

/** "Download my data": a zip of the account's clothing items, generations and credit ledger, with their files. */
export function YourData() {
  const download = useMutation({
    mutationFn: async () => {
      const archive = await exportAccountData();
      await downloadFile(archive.url, archive.fileName);
      return archive;
    },
    onError: (error) => toast.error('Download failed', { description: error instanceof Error ? error.message : 'Please try again.' }),
  });
  return (
    <section id="your-data" aria-labelledby="your-data-title">
      <Card>
        <CardHeader>
          <CardTitle id="your-data-title">Your Data</CardTitle>
          <CardDescription>
            A zip of your clothing items, generations, video jobs and credit transactions (JSON and CSV), with your images and videos.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <Button variant="outline" onClick={() => download.mutate()} disabled={download.isPending}>
            {download.isPending ? <Spinner className="h-4 w-4" label={null} /> : <Download className="h-4 w-4" aria-hidden="true" />}
            Download my data
          </Button>
        </CardContent>
      </Card>
    </section>
  );
}
