// Realtime latency on the local twin: one socket of a signed-in user (real cognito-local token, the $connect
// authorizer), then 200 writes of that user's profile balance, one at a time; each is timed from the DynamoDB write
// being sent to its message arriving at the socket (DynamoDB Local stream → poller → fan-out → @connections → ws).
// Run: npx tsx bench/realtime.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { startTwin } from '../lib/local/twin.js';
import { createUser } from '../test/support/users.js';

const WRITES = 200;
const MESSAGE_TIMEOUT_MS = 10_000;

const dataDir = mkdtempSync(join(tmpdir(), 'modelloop-bench-realtime-'));
const twin = await startTwin({ dataDir });
const { UpdateCommand } = await import('@aws-sdk/lib-dynamodb');
const { dynamo } = await import('../lambdas/data/dynamo.js');
const { tableName } = await import('../lambdas/data/tables.js');
const { connectionsOf } = await import('../lambdas/data/connections-repo.js');

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

try {
  const user = await createUser(twin.info);
  // The first authenticated call creates the profile.
  await fetch(`${twin.apiUrl}/profile`, { headers: { authorization: `Bearer ${user.idToken}` } });

  const socket = new WebSocket(`${twin.websocketUrl}?token=${encodeURIComponent(user.idToken)}`);
  const arrivals = new Map<number, number>();
  let notify: (() => void) | undefined;
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as { type: string; current_credits?: number };
    if (message.type === 'credits' && message.current_credits !== undefined) arrivals.set(message.current_credits, performance.now());
    notify?.();
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  while ((await connectionsOf(user.sub)).length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
  await new Promise((resolve) => setTimeout(resolve, 500)); // let the sign-up grant's message pass

  const waitFor = (balance: number) =>
    new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`No message for balance ${balance}`)), MESSAGE_TIMEOUT_MS);
      const check = () => {
        const at = arrivals.get(balance);
        if (at === undefined) return;
        clearTimeout(timer);
        notify = undefined;
        resolve(at);
      };
      notify = check;
      check();
    });

  const endToEnd: number[] = [];
  const afterAck: number[] = [];
  for (let i = 1; i <= WRITES; i++) {
    const balance = 1000 + i;
    const sent = performance.now();
    await dynamo.send(
      new UpdateCommand({
        TableName: tableName('profiles'),
        Key: { id: user.sub },
        UpdateExpression: 'SET current_credits = :balance',
        ExpressionAttributeValues: { ':balance': balance },
      }),
    );
    const acknowledged = performance.now();
    const arrived = await waitFor(balance);
    endToEnd.push(arrived - sent);
    afterAck.push(arrived - acknowledged);
  }
  socket.close();

  const report = (label: string, values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
    console.log(
      `${label.padEnd(44)} p50 ${percentile(sorted, 50).toFixed(1).padStart(6)} ms   p95 ${percentile(sorted, 95).toFixed(1).padStart(6)} ms   mean ${mean.toFixed(1).padStart(6)} ms   max ${sorted.at(-1)!.toFixed(1).padStart(6)} ms`,
    );
  };
  console.log(`realtime latency on the local twin, ${WRITES} profile writes, one socket (stream poll idle interval 100 ms)`);
  report('DynamoDB write sent -> message at the socket', endToEnd);
  report('write acknowledged -> message at the socket', afterAck);
} finally {
  await twin.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
