import { MAX_ACTIVE_API_KEYS, type ApiKeySummary, type CreatedApiKey } from '@contracts/api-keys';
import { BookOpen, KeyRound, Trash2 } from 'lucide-react';
import { Suspense, lazy, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Dialog, DialogClose, DialogContent } from '@/components/ui/dialog';
import { Input, Label } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { useSession } from '@/lib/session-context';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from './api';
import { CopyButton } from './copy-button';
import { QuickStart } from './quick-start';

// The rendered reference (and the OpenAPI document it reads) loads only when asked for.
const ApiReference = lazy(() => import('./api-reference'));
import { WebhooksPanel } from './webhooks-panel';

export default function ApiPage() {
  const { config } = useSession();
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKeySummary | undefined>();
  const [showReference, setShowReference] = useState(false);
  const activeCount = keys.data?.filter((key) => key.status === 'active').length ?? 0;
  // The raw key is shown once, and only while it works: revoking it takes the banner away.
  const shownKey = created && keys.data?.find((key) => key.id === created.id)?.status !== 'revoked' ? created : null;

  const onCreate = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    create.mutate(name.trim() || `Key ${(keys.data?.length ?? 0) + 1}`, {
      onSuccess: (key) => {
        setCreated(key);
        setName('');
      },
      onError: (error) => toast.error('Error', { description: error instanceof ApiError ? error.message : 'The key could not be created.' }),
    });
  };

  return (
    <div className="space-y-8">
      <PageHeader title="API" description="Create keys and call ModelLoop from your own code: the same photos, videos and credits as in the studio." />

      <Card>
        <CardHeader>
          <CardTitle>API keys</CardTitle>
          <CardDescription>
            A key acts as you on the API at <code>{config.apiUrl.replace(/\/+$/, '')}/v1</code>. At most {MAX_ACTIVE_API_KEYS} active keys; each has its own request rate
            (the API reference says how much).
          </CardDescription>
        </CardHeader>
        <CardContent className="space-y-6">
          <form onSubmit={onCreate} className="flex flex-col gap-3 sm:flex-row sm:items-end">
            <div className="flex-1">
              <Label htmlFor="key-name">Key name</Label>
              <Input id="key-name" value={name} onChange={(event) => setName(event.target.value)} placeholder="e.g. Shopify sync" maxLength={60} />
            </div>
            <Button type="submit" busy={create.isPending} disabled={activeCount >= MAX_ACTIVE_API_KEYS}>
              <KeyRound className="h-4 w-4" aria-hidden="true" /> Create key
            </Button>
          </form>

          {shownKey && (
            <div role="status" className="space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 p-4">
              <p className="break-words font-medium text-emerald-900">Your new key “{shownKey.name}”. Copy it now: it is shown only this once.</p>
              <div className="flex flex-col gap-2 sm:flex-row sm:items-center">
                <code className="block flex-1 break-all rounded bg-white p-2 font-mono text-sm text-slate-900" data-testid="new-api-key">
                  {shownKey.key}
                </code>
                <CopyButton text={shownKey.key} label={`Copy ${shownKey.name}`} what="The key" />
              </div>
              <Button variant="ghost" size="sm" onClick={() => setCreated(null)}>
                I have copied it
              </Button>
            </div>
          )}

          {keys.isPending ? (
            <Spinner label="Loading API keys" />
          ) : !keys.data?.length ? (
            <p className="text-slate-700">No API keys yet.</p>
          ) : (
            <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200" aria-label="API keys">
              {keys.data.map((key) => (
                <li key={key.id} className="flex flex-col gap-3 p-4 md:flex-row md:items-center md:justify-between">
                  <div className="min-w-0">
                    <p className="flex items-center gap-2 font-medium text-slate-900">
                      {key.name}
                      <Badge tone={key.status === 'active' ? 'success' : 'neutral'}>{key.status === 'active' ? 'Active' : 'Revoked'}</Badge>
                    </p>
                    <code className="block font-mono text-sm text-slate-700" data-testid="api-key-masked">
                      {key.prefix}…{key.last4}
                    </code>
                    <p className="mt-1 text-xs text-slate-600">
                      Created {formatDateTime(key.created_at)} · Last used {key.last_used_at ? formatDateTime(key.last_used_at) : 'never'}
                      {key.revoked_at ? ` · Revoked ${formatDateTime(key.revoked_at)}` : ''}
                    </p>
                  </div>
                  {key.status === 'active' && (
                    <Button variant="outline" size="sm" aria-label={`Revoke ${key.name}`} onClick={() => setRevoking(key)}>
                      <Trash2 className="h-4 w-4 text-red-600" aria-hidden="true" /> Revoke
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Quick start</CardTitle>
          <CardDescription>Copy-ready examples against this deployment.</CardDescription>
        </CardHeader>
        <CardContent>
          <QuickStart apiBase={config.apiUrl} />
        </CardContent>
      </Card>

      <WebhooksPanel />

      <Card>
        <CardHeader>
          <CardTitle>API reference</CardTitle>
          <CardDescription>Every /v1 route, from the OpenAPI 3.1 document this deployment serves.</CardDescription>
        </CardHeader>
        <CardContent>
          {showReference ? (
            <Suspense fallback={<Spinner label="Loading the API reference" />}>
              <ApiReference apiBase={config.apiUrl} />
            </Suspense>
          ) : (
            <Button variant="outline" onClick={() => setShowReference(true)}>
              <BookOpen className="h-4 w-4" aria-hidden="true" /> Show the API reference
            </Button>
          )}
        </CardContent>
      </Card>

      <RevokeDialog
        apiKey={revoking}
        onClose={() => setRevoking(undefined)}
        onRevoked={(id) => setCreated((shown) => (shown?.id === id ? null : shown))}
      />
    </div>
  );
}

function RevokeDialog({ apiKey, onClose, onRevoked }: { apiKey: ApiKeySummary | undefined; onClose: () => void; onRevoked: (id: string) => void }) {
  const revoke = useRevokeApiKey();
  const onConfirm = () => {
    if (!apiKey) return;
    revoke.mutate(apiKey.id, {
      onSuccess: () => {
        onRevoked(apiKey.id);
        toast.success('Key revoked', { description: `“${apiKey.name}” stops working within a minute.` });
        onClose();
      },
      onError: () => toast.error('Error', { description: 'The key could not be revoked. Try again.' }),
    });
  };
  return (
    <Dialog open={apiKey !== undefined} onOpenChange={(open) => !open && !revoke.isPending && onClose()}>
      {apiKey && (
        <DialogContent
          role="alertdialog"
          title="Revoke this key?"
          description={`Programs using “${apiKey.name}” (${apiKey.prefix}…${apiKey.last4}) will get 401 within a minute. This can't be undone.`}
        >
          <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <DialogClose asChild>
              <Button variant="outline" disabled={revoke.isPending}>
                Cancel
              </Button>
            </DialogClose>
            <Button variant="destructive" busy={revoke.isPending} onClick={onConfirm}>
              Revoke
            </Button>
          </div>
        </DialogContent>
      )}
    </Dialog>
  );
}
