// Webhook delivery delay on the local twin: one user with an endpoint on a local receiver subscribed to
// generation.completed, then GENERATIONS on-model pictures (two at a time, as a shop's sync would send them); each
// delay is from the generation's completion (its completed_at, written when the row turns complete) to the signed
// delivery arriving at the receiver: DynamoDB Local stream → poller → the streams' consumer → delivery workflow → POST.
// Run: npx tsx bench/webhooks.ts [--generations 20]
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { startTwin } from '../lib/local/twin.js';
import { tshirtPhoto } from '../test/fixtures/local-engine-images.js';
import { api } from '../test/support/api.js';
import { createUser } from '../test/support/users.js';
import { startWebhookReceiver } from '../test/support/webhook-receiver.js';

const flag = process.argv.indexOf('--generations');
const GENERATIONS = flag > 0 ? Number(process.argv[flag + 1]) : 20;
const CONCURRENCY = 2;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

const dataDir = mkdtempSync(join(tmpdir(), 'modelloop-bench-webhooks-'));
const receiver = await startWebhookReceiver();
const twin = await startTwin({ dataDir, stripe: false });
try {
  const user = await createUser(twin.info);
  const bought = await api(twin.apiUrl, 'POST', '/credits/purchase', { user, body: { credits: GENERATIONS + 5 }, headers: { 'idempotency-key': randomUUID() } });
  if (bought.status !== 200) throw new Error(`purchase answered ${bought.status}: ${JSON.stringify(bought.body)}`);
  const endpoint = await api(twin.apiUrl, 'POST', '/webhooks', { user, body: { url: `${receiver.url}/bench`, events: ['generation.completed'] } });
  if (endpoint.status !== 201) throw new Error(`POST /webhooks answered ${endpoint.status}: ${JSON.stringify(endpoint.body)}`);
  const webhook = new Webhook(endpoint.body.secret);
  const image = `data:image/jpeg;base64,${(await tshirtPhoto(400, 500)).toString('base64')}`;

  const delays: number[] = [];
  const generate = async () => {
    const started = await api(twin.apiUrl, 'POST', '/generate-ai-image', {
      user,
      body: { imageData: image, prompt: 'young female model', productType: 'clothing' },
      headers: { 'idempotency-key': randomUUID() },
    });
    if (started.status !== 200) throw new Error(`generate answered ${started.status}: ${JSON.stringify(started.body)}`);
    const id: string = started.body.generationId;
    for (const deadline = Date.now() + 120_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 20))) {
      const delivery = receiver.received.find((request) => JSON.parse(request.body).data?.id === id);
      if (!delivery) continue;
      const event = webhook.verify(delivery.body, delivery.headers as Record<string, string>) as { data: { completed_at: string } };
      delays.push(delivery.receivedAt - Date.parse(event.data.completed_at));
      return;
    }
    throw new Error(`No webhook for generation ${id} within 120 s`);
  };
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < GENERATIONS) {
        next++;
        await generate();
      }
    }),
  );

  const sorted = [...delays].sort((a, b) => a - b);
  const mean = delays.reduce((sum, value) => sum + value, 0) / delays.length;
  console.log(`webhook delivery delay on the local twin, ${delays.length} generations (${CONCURRENCY} at a time), load average ${loadavg().map((value) => value.toFixed(1)).join(' ')}`);
  console.log(
    `${'generation completed_at -> signed POST at the receiver'.padEnd(56)} p50 ${percentile(sorted, 50).toFixed(0).padStart(5)} ms   p95 ${percentile(sorted, 95).toFixed(0).padStart(5)} ms   mean ${mean.toFixed(0).padStart(5)} ms   max ${sorted.at(-1)!.toFixed(0).padStart(5)} ms`,
  );
} finally {
  await twin.stop();
  await receiver.close();
  rmSync(dataDir, { recursive: true, force: true });
}
