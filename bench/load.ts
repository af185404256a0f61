// Load on the twin's HTTP API with autocannon: GET /profile, GET /generations and POST /generate-ai-image replayed
// (a handful of Idempotency-Keys, so after the first request of each key every request is a replay: the ledger's
// idempotency path, not a new generation), each at 10 and 50 connections. Prints p50/p99 latency, throughput and
// error counts (connection errors, timeouts, non-2xx answers by status).
//
// Run: npx tsx bench/load.ts [--duration 10] [--running]
//   --running   load the twin `npm start` is running on .data (else an own twin is started on a temporary folder).
// The load generator shares the machine (and, without --running, the Node process) with the twin: the figures are
// those of the whole local stack, not of Lambda.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { findRunningTwin, startTwin, type Twin, type TwinInfo } from '../lib/local/twin.js';
import { createUser } from '../test/support/users.js';
import { tshirtPhoto } from '../test/fixtures/local-engine-images.js';

const argument = (name: string) => {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
};
const DURATION_SECONDS = Number(argument('duration') ?? 10);
const CONNECTIONS = [10, 50];
const REPLAYED_KEYS = 5;

// The bench measures the API, not the per-user limits: one user sends all of it.
process.env.USER_LIMITS ??= JSON.stringify({ rates: { spending: { limit: 1_000_000, windowSeconds: 10 } }, running: { image: 1000 } });

let ownTwin: Twin | undefined;
let dataDir: string | undefined;
let info: TwinInfo | undefined;
if (process.argv.includes('--running')) {
  info = await findRunningTwin(resolve(import.meta.dirname, '../.data'));
  if (!info) throw new Error('No twin is running on .data: start one with `npm start`, or run without --running.');
} else {
  dataDir = mkdtempSync(join(tmpdir(), 'modelloop-bench-load-'));
  ownTwin = await startTwin({ dataDir });
  info = ownTwin.info;
}

interface Row {
  scenario: string;
  connections: number;
  requests: number;
  throughput: number;
  p50: number;
  p99: number;
  errors: number;
  timeouts: number;
  non2xx: string;
}

try {
  const user = await createUser(info, `load-${randomUUID().slice(0, 8)}@example.com`);
  const authorization = `Bearer ${user.idToken}`;
  const profile = await fetch(`${info.apiUrl}/profile`, { headers: { authorization } });
  if (!profile.ok) throw new Error(`GET /profile answered ${profile.status}`);

  const photo = await tshirtPhoto(300, 360);
  const generateBody = JSON.stringify({ imageData: `data:image/jpeg;base64,${photo.toString('base64')}`, prompt: 'young female model', imageSize: '1k' });
  const keys = Array.from({ length: REPLAYED_KEYS }, () => randomUUID());

  const scenarios: { name: string; options: Partial<autocannon.Options> }[] = [
    { name: 'GET /profile', options: { method: 'GET', path: '/profile' } },
    { name: 'GET /generations', options: { method: 'GET', path: '/generations' } },
    {
      name: `POST /generate-ai-image (${REPLAYED_KEYS} keys, replays)`,
      options: {
        requests: [
          {
            method: 'POST',
            path: '/generate-ai-image',
            body: generateBody,
            setupRequest: (request) => {
              request.headers = { ...request.headers, 'content-type': 'application/json', 'idempotency-key': keys[Math.floor(Math.random() * keys.length)]! };
              return request;
            },
          },
        ],
      },
    },
  ];

  const apiUrl = new URL(info.apiUrl.replace(/\/$/, ''));
  const rows: Row[] = [];
  for (const scenario of scenarios) {
    for (const connections of CONNECTIONS) {
      const { path, requests, ...options } = scenario.options;
      const result = await autocannon({
        // The API lives under a path prefix on the gateway: the URL carries it for GETs, each request's path for POSTs.
        url: `${apiUrl.origin}${apiUrl.pathname}${path ?? ''}`,
        connections,
        duration: DURATION_SECONDS,
        headers: { authorization },
        ...options,
        ...(requests ? { requests: requests.map((request) => ({ ...request, path: `${apiUrl.pathname}${request.path}` })) } : {}),
      });
      // Let the requests still in the twin finish before the next row (and before the twin stops).
      await new Promise((resolveDrain) => setTimeout(resolveDrain, 2000));
      const statuses = Object.entries(result.statusCodeStats ?? {})
        .filter(([status]) => !status.startsWith('2'))
        .map(([status, { count }]) => `${status}×${count}`);
      rows.push({
        scenario: scenario.name,
        connections,
        requests: result.requests.total,
        throughput: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors: result.errors,
        timeouts: result.timeouts,
        non2xx: statuses.join(' ') || '0',
      });
    }
  }

  const balance = (await (await fetch(`${info.apiUrl}/profile`, { headers: { authorization } })).json()) as { current_credits: number };
  console.log(`\nHTTP API load on the local twin (${DURATION_SECONDS} s per row; ${availableParallelism()} cores, load average ${loadavg()[0]!.toFixed(1)})\n`);
  console.log('| scenario | connections | requests | req/s | p50 ms | p99 ms | errors | timeouts | non-2xx |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const row of rows) {
    console.log(`| ${row.scenario} | ${row.connections} | ${row.requests} | ${row.throughput.toFixed(0)} | ${row.p50} | ${row.p99} | ${row.errors} | ${row.timeouts} | ${row.non2xx} |`);
  }
  const ledger = (await (await fetch(`${info.apiUrl}/credit-transactions`, { headers: { authorization } })).json()) as { items: { transaction_type: string }[] };
  const count = (type: string) => ledger.items.filter((entry) => entry.transaction_type === type).length;
  console.log(
    `\nLedger after ${rows.filter((row) => row.scenario.startsWith('POST')).reduce((sum, row) => sum + row.requests, 0)} generate requests on ${REPLAYED_KEYS} keys: ` +
      `${count('debit')} debits, ${count('refund')} refunds (failed generations), balance ${balance.current_credits}.`,
  );
} finally {
  await ownTwin?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
