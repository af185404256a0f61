import type { AccountExport } from '@contracts/account';
import { ACCOUNT_EXPORT_MESSAGES } from '@contracts/account';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api';
import { saveAttachment } from '@/lib/downloads';
import { accountExportQueryKey, exportAccountData, latestAccountExport } from './api';

const day = (iso: string) => new Date(iso).toLocaleDateString();

/**
 * "Download my data": a zip of the account's records (clothing items, generations, video jobs, batches, credit
 * transactions and more, as JSON and CSV) with its images and videos. The server builds it as workflow work: the
 * button answers at once, the page hears when the zip is ready (the live `account-export` list, polled while the
 * socket is down) and saves it, and an e-mail says so too. A ready zip stays offered here for a day.
 */
export function YourData() {
  const queryClient = useQueryClient();
  const latest = useQuery({ queryKey: accountExportQueryKey, queryFn: latestAccountExport });
  const current = latest.data?.export ?? null;
  // The export this page asked for: saved as soon as it is ready, once.
  const awaited = useRef<string | null>(null);

  const start = useMutation({
    mutationFn: exportAccountData,
    onSuccess: (started) => {
      awaited.current = started.exportId;
      queryClient.setQueryData(accountExportQueryKey, { export: started });
    },
    onError: (error) => {
      // One export at a time: asking again while one is being prepared says so, and is no failure.
      if (error instanceof ApiError && error.code === 'ALREADY_RUNNING') toast.info(error.message);
      else toast.error('Download failed', { description: error instanceof Error ? error.message : 'Please try again.' });
    },
  });

  useEffect(() => {
    if (!current || current.exportId !== awaited.current) return;
    if (current.status === 'ready' && current.url) {
      awaited.current = null;
      saveAttachment(current.url);
      toast.success('Your data is ready', { description: `${current.fileName} is downloading.` });
    } else if (current.status === 'failed') {
      awaited.current = null;
      toast.error('Download failed', { description: ACCOUNT_EXPORT_MESSAGES.failed });
    }
  }, [current]);

  // Enabled while an export is being prepared: one the server lost (a restart) is replaced by the next request.
  const building = start.isPending || current?.status === 'building';
  return (
    <section id="your-data" aria-labelledby="your-data-title">
      <Card>
        <CardHeader>
          <CardTitle id="your-data-title">Your Data</CardTitle>
          <CardDescription>
            A zip of your clothing items, generations, video jobs and credit transactions (JSON and CSV), with your images and videos.
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-3">
          <ExportState current={current} />
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={() => start.mutate()} disabled={start.isPending}>
              {building ? <Spinner className="h-4 w-4" label={null} /> : <Download className="h-4 w-4" aria-hidden="true" />}
              Download my data
            </Button>
            {current?.status === 'ready' && current.url && (
              <Button variant="ghost" onClick={() => void latest.refetch().then(({ data }) => data?.export?.url && saveAttachment(data.export.url))}>
                Download the zip of {day(current.requestedAt)} again
              </Button>
            )}
          </div>
        </CardContent>
      </Card>
    </section>
  );
}

function ExportState({ current }: { current: AccountExport | null }) {
  if (!current) return null;
  if (current.status === 'building') {
    return (
      <p role="status" className="text-sm text-slate-600">
        Preparing your data. This can take a few minutes; you can leave this page, and we will e-mail you when it is ready.
      </p>
    );
  }
  if (current.status === 'failed') return <p className="text-sm text-red-700">{ACCOUNT_EXPORT_MESSAGES.failed}</p>;
  return (
    <p className="text-sm text-slate-600">
      Your data of {day(current.requestedAt)} is ready: {current.filesIncluded} files in the zip
      {current.filesLinked ? `, ${current.filesLinked} as links in files.csv` : ''}. It is kept for a day.
    </p>
  );
}
