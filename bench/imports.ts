// Product-link imports on the local twin, against the local sample shop: the time of POST /imports for each kind of
// page (page fetch, Shopify JSON, every candidate downloaded and previewed) and of POST /imports/{id}/select (download,
// full decode, store), as p50 / p95 over a few runs each, plus the guard's own cost: one fetch of the same small page
// through safeFetch against Node's global fetch, side by side.
// Run: LOG_LEVEL=warn npx tsx bench/imports.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTwin } from '../lib/local/twin.js';
import { startSampleShop } from '../test/support/sample-shop.js';
import { createUser } from '../test/support/users.js';

const RUNS = 10;
const GUARD_RUNS = 200;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};
const summary = (values: number[]) => `p50 ${percentile(values, 50).toFixed(1)} ms, p95 ${percentile(values, 95).toFixed(1)} ms`;

const dataDir = mkdtempSync(join(tmpdir(), 'modelloop-bench-imports-'));
const shop = await startSampleShop();
const twin = await startTwin({ dataDir, testFetchTargets: [`127.0.0.1:${shop.port}`] });
const { safeFetch } = await import('../lambdas/net/safe-fetch.js');

try {
  // Each user may import 30 times a minute: one user per page kind keeps the runs under the limit.
  const post = async (token: string, path: string, body: unknown) => {
    const started = performance.now();
    const response = await fetch(`${twin.apiUrl}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json()) as any;
    if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(answer)}`);
    return { ms: performance.now() - started, answer };
  };

  for (const page of ['/products/linen-shirt', '/product/silk-scarf/', '/og-only', '/plain-bag', '/cdn/shirt-back.jpg']) {
    const user = await createUser(twin.info);
    const imports: number[] = [];
    const selects: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const created = await post(user.idToken, '/imports', { url: `${shop.url}${page}` });
      imports.push(created.ms);
      const picked = await post(user.idToken, `/imports/${created.answer.importId}/select`, { imageUrl: created.answer.candidates[0].imageUrl, purpose: 'image' });
      selects.push(picked.ms);
    }
    console.log(`${page.padEnd(24)} import ${summary(imports)}; select ${summary(selects)}`);
  }

  const url = `${shop.url}/og-only`;
  const guarded: number[] = [];
  const plain: number[] = [];
  for (let run = 0; run < GUARD_RUNS; run++) {
    let started = performance.now();
    await safeFetch(url, { maxBytes: 2 * 1024 * 1024 });
    guarded.push(performance.now() - started);
    started = performance.now();
    await (await fetch(url)).arrayBuffer();
    plain.push(performance.now() - started);
  }
  console.log(`one small page, ${GUARD_RUNS} runs: safeFetch ${summary(guarded)}; global fetch ${summary(plain)}`);
} finally {
  await twin.stop();
  await shop.close();
  rmSync(dataDir, { recursive: true, force: true });
}
