// Webhooks on the API screen: add an endpoint (its signing secret shown once, with a copy button), send it a test
// event, delete it after a confirmation, and the delivery log of the newest attempts, read again every few seconds.
import { MAX_WEBHOOK_ENDPOINTS, WEBHOOK_EVENT_TYPES, WEBHOOK_LOG_SIZE, type CreatedWebhookEndpoint, type WebhookDelivery, type WebhookEndpoint, type WebhookEventType } from '@contracts/webhooks';
import { Copy, Send, Trash2, Webhook } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { DataTable, type Column } from '@/components/ui/data-table';
import { Dialog, DialogClose, DialogContent } from '@/components/ui/dialog';
import { Input, Label } from '@/components/ui/field';
import { formatDateTime } from '@/lib/format';
import { useCreateWebhook, useDeleteWebhook, useSendTestEvent, useWebhookDeliveries, useWebhookEndpoints } from './use-webhooks';

const EVENT_LABELS: Record<WebhookEventType, string> = {
  'generation.completed': 'Image ready',
  'generation.failed': 'Image failed',
  'video.completed': 'Video ready',
  'video.failed': 'Video failed',
  'batch.completed': 'Batch finished',
  'publish.completed': 'Published to Shopify',
};

const errorText = (error: unknown) => (error instanceof Error ? error.message : 'Something went wrong. Please try again.');

export function WebhooksPanel() {
  const endpoints = useWebhookEndpoints();
  const deliveries = useWebhookDeliveries();
  const create = useCreateWebhook();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(['generation.completed', 'video.completed']);
  const [created, setCreated] = useState<CreatedWebhookEndpoint | null>(null);
  const count = endpoints.data?.length ?? 0;
  const full = count >= MAX_WEBHOOK_ENDPOINTS;

  const onAdd = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    create.mutate(
      { url: url.trim(), events },
      {
        onSuccess: (endpoint) => {
          setCreated(endpoint);
          setUrl('');
          toast.success('Endpoint added', { description: 'Copy its signing secret now: it is shown only once.' });
        },
        onError: (error) => toast.error('Error', { description: errorText(error) }),
      },
    );
  };

  const toggle = (type: WebhookEventType, on: boolean) =>
    setEvents((current) => (on ? WEBHOOK_EVENT_TYPES.filter((known) => known === type || current.includes(known)) : current.filter((known) => known !== type)));

  return (
    <Card>
      <CardHeader>
        <CardTitle>Webhooks</CardTitle>
        <CardDescription>
          ModelLoop sends a signed POST (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature) to your endpoints when work
          finishes, and retries failed deliveries for about a day. Up to {MAX_WEBHOOK_ENDPOINTS} endpoints.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        <form onSubmit={onAdd} className="space-y-3" aria-label="Add a webhook endpoint">
          <div>
            <Label htmlFor="webhook-url">Endpoint URL</Label>
            <Input
              id="webhook-url"
              type="url"
              inputMode="url"
              required
              value={url}
              onChange={(event) => setUrl(event.target.value)}
              placeholder="https://example.com/modelloop-webhooks"
            />
          </div>
          <fieldset>
            <legend className="text-sm font-medium text-slate-900">Events</legend>
            <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
              {WEBHOOK_EVENT_TYPES.map((type) => (
                <label key={type} className="flex items-center gap-2 text-sm text-slate-800">
                  <input type="checkbox" checked={events.includes(type)} onChange={(event) => toggle(type, event.target.checked)} />
                  {EVENT_LABELS[type]} <code className="text-xs text-slate-600">{type}</code>
                </label>
              ))}
            </div>
          </fieldset>
          <Button type="submit" busy={create.isPending} disabled={full || events.length === 0 || !url.trim()}>
            <Webhook className="h-4 w-4" aria-hidden="true" /> Add endpoint
          </Button>
          {full && <p className="text-sm text-slate-700">You have {MAX_WEBHOOK_ENDPOINTS} endpoints, the most there can be. Delete one to add another.</p>}
        </form>

        {created && <CreatedSecret endpoint={created} onDone={() => setCreated(null)} />}

        {endpoints.isPending ? (
          <p className="text-slate-700">Loading endpoints…</p>
        ) : count === 0 ? (
          <p className="text-slate-700">No webhook endpoints yet.</p>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200" aria-label="Webhook endpoints">
            {endpoints.data!.map((endpoint) => (
              <EndpointRow key={endpoint.id} endpoint={endpoint} />
            ))}
          </ul>
        )}

        <DeliveryLog items={deliveries.data} endpoints={endpoints.data ?? []} loading={deliveries.isPending} />
      </CardContent>
    </Card>
  );
}

function CreatedSecret({ endpoint, onDone }: { endpoint: CreatedWebhookEndpoint; onDone: () => void }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(endpoint.secret);
      toast.success('Copied', { description: 'The signing secret is on your clipboard.' });
    } catch {
      toast.error('Error', { description: 'The secret could not be copied. Select it and copy it by hand.' });
    }
  };
  return (
    <div className="space-y-2 rounded-lg border border-emerald-300 bg-emerald-50 p-4" role="status">
      <p className="text-sm font-medium text-emerald-900 wrap-anywhere">Signing secret of {endpoint.url}: copy it now, it is shown only once.</p>
      <code className="block break-all font-mono text-sm text-slate-900" data-testid="webhook-secret">
        {endpoint.secret}
      </code>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" onClick={() => void copy()}>
          <Copy className="h-4 w-4" aria-hidden="true" /> Copy secret
        </Button>
        <Button variant="ghost" size="sm" onClick={onDone}>
          Done
        </Button>
      </div>
    </div>
  );
}

function EndpointRow({ endpoint }: { endpoint: WebhookEndpoint }) {
  const remove = useDeleteWebhook();
  const test = useSendTestEvent();
  const [confirming, setConfirming] = useState(false);
  const sendTest = () =>
    test.mutate(endpoint.id, {
      onSuccess: (sent) => toast.success('Test event sent', { description: sent.message }),
      onError: (error) => toast.error('Error', { description: errorText(error) }),
    });
  const onDelete = () =>
    remove.mutate(endpoint.id, {
      onSuccess: () => {
        setConfirming(false);
        toast.success('Endpoint deleted', { description: `${endpoint.url} receives nothing more.` });
      },
      onError: (error) => toast.error('Error', { description: errorText(error) }),
    });
  return (
    <li className="flex flex-col gap-3 p-4 md:flex-row md:items-center md:justify-between">
      <div className="min-w-0 space-y-1">
        <p className="break-all font-mono text-sm text-slate-900">{endpoint.url}</p>
        <div className="flex flex-wrap gap-1">
          {endpoint.events.map((type) => (
            <Badge key={type}>{type}</Badge>
          ))}
          {endpoint.disabled_at && <Badge tone="danger">Disabled: the receiver answered 410 Gone</Badge>}
        </div>
        <p className="text-xs text-slate-600">Added {formatDateTime(endpoint.created_at)}</p>
      </div>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" busy={test.isPending} disabled={Boolean(endpoint.disabled_at)} onClick={sendTest} aria-label={`Send test event to ${endpoint.url}`}>
          <Send className="h-4 w-4" aria-hidden="true" /> Send test event
        </Button>
        <Dialog open={confirming} onOpenChange={setConfirming}>
          <Button variant="outline" size="sm" onClick={() => setConfirming(true)} aria-label={`Delete ${endpoint.url}`}>
            <Trash2 className="h-4 w-4 text-red-600" aria-hidden="true" /> Delete
          </Button>
          <DialogContent role="alertdialog" title="Delete this endpoint?" description={`${endpoint.url} will receive no more events, retries included.`}>
            <div className="mt-6 flex justify-end gap-2">
              <DialogClose asChild>
                <Button variant="outline">Cancel</Button>
              </DialogClose>
              <Button variant="destructive" busy={remove.isPending} onClick={onDelete}>
                Delete endpoint
              </Button>
            </div>
          </DialogContent>
        </Dialog>
      </div>
    </li>
  );
}

function statusOf(delivery: WebhookDelivery): string {
  if (delivery.ok) return `${delivery.status_code ?? ''} delivered`.trim();
  if (delivery.status_code !== null) return `${delivery.status_code} failed`;
  const reasons: Record<string, string> = {
    ADDRESS_NOT_ALLOWED: 'address not allowed',
    TIMEOUT: 'no answer within 10 s',
    UNREACHABLE: 'unreachable',
    TOO_LARGE: 'answer too large',
  };
  return reasons[delivery.error ?? ''] ?? delivery.error ?? 'failed';
}

function DeliveryLog({ items, endpoints, loading }: { items: WebhookDelivery[] | undefined; endpoints: WebhookEndpoint[]; loading: boolean }) {
  const known = new Set(endpoints.map((endpoint) => endpoint.id));
  const columns: Column<WebhookDelivery>[] = [
    { header: 'Time', cell: (delivery) => formatDateTime(delivery.created_at), className: 'whitespace-nowrap' },
    {
      header: 'Event',
      cell: (delivery) => (
        <>
          <span className="block">{delivery.event_type}</span>
          <code className="text-xs text-slate-600">{delivery.event_id}</code>
        </>
      ),
    },
    {
      header: 'Endpoint',
      cell: (delivery) => (
        <>
          {delivery.url}
          {!known.has(delivery.endpoint_id) && <span className="ml-1 text-slate-500">(deleted)</span>}
        </>
      ),
      className: 'break-all font-mono text-xs',
    },
    { header: 'Attempt', cell: (delivery) => delivery.attempt },
    { header: 'Status', cell: (delivery) => <Badge tone={delivery.ok ? 'success' : 'danger'}>{statusOf(delivery)}</Badge> },
  ];
  return (
    <section aria-labelledby="webhook-log-title" className="space-y-2">
      <h3 id="webhook-log-title" className="text-base font-semibold text-slate-900">
        Delivery log
      </h3>
      <p className="text-sm text-slate-600">The newest {WEBHOOK_LOG_SIZE} attempts; a retry keeps its event id.</p>
      {loading ? (
        <p className="text-slate-700">Loading deliveries…</p>
      ) : !items?.length ? (
        <p className="text-slate-700">No deliveries yet. Send a test event to see one here.</p>
      ) : (
        <DataTable
          rows={items}
          columns={columns}
          rowKey={(delivery) => delivery.id}
          label="Webhook deliveries"
          scrollLabel="Webhook delivery log"
          scrollClassName="rounded-lg border border-slate-200"
          spacing="compact"
        />
      )}
    </section>
  );
}
