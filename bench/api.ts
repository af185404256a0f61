// The public API's figures on the local twin.
// 1. Added latency of API-key auth against JWT auth: 500 calls of GET /v1/profile (x-api-key) and of GET /profile
//    (Cognito ID token), interleaved one at a time, p50/p95 of each; with the authorizer's answer cached (warm: the
//    gateway reuses it for API_KEY_AUTH_CACHE_SECONDS, as API Gateway does) and with no cache (cold: the authorizer
//    runs on every call: hash, index lookup, last-used write). A key call also counts against its rate limit (one
//    conditional write); the limit is raised here so that no call is refused.
//    Both paths include the caller gate (2.).
// 2. The caller gate's cost: the one strongly consistent BatchGetItem every user route makes before its handler
//    (domain/caller-gate.ts: is the account being deleted or deleted; with a key, is it revoked), timed alone
//    against DynamoDB Local, 500 times for a token caller (the profile) and for a key caller (profile + key).
// 3. Webhook delivery delay: see webhookDelay() below.
// Run: npx tsx bench/api.ts
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_KEY_AUTH_CACHE_SECONDS } from '../lambdas/contracts/api-keys.js';
import { startTwin } from '../lib/local/twin.js';
import { createApiKey } from '../test/support/api-keys.js';
import { createUser } from '../test/support/users.js';

const CALLS = 500;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const summary = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95) };
};
const ms = (value: number) => `${value.toFixed(2)} ms`;

async function timed(url: string, headers: Record<string, string>): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  const elapsed = performance.now() - started;
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return elapsed;
}

/** Key auth against JWT auth on one twin whose gateway caches the authorizer's answer for `cacheSeconds`. */
async function keyAuthLatency(label: string, cacheSeconds: number): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'modelloop-bench-api-'));
  const twin = await startTwin({ dataDir, apiKeyCacheSeconds: cacheSeconds });
  try {
    const user = await createUser(twin.info);
    const { key } = await createApiKey(twin.apiUrl, user, 'bench');
    const jwt = { authorization: `Bearer ${user.idToken}` };
    const apiKey = { 'x-api-key': key };
    // Warm up both paths (module loads, the profile's creation, the first authorizer answer).
    for (let i = 0; i < 20; i++) {
      await timed(`${twin.apiUrl}/profile`, jwt);
      await timed(`${twin.apiUrl}/v1/profile`, apiKey);
    }
    const jwtSamples: number[] = [];
    const keySamples: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      jwtSamples.push(await timed(`${twin.apiUrl}/profile`, jwt));
      keySamples.push(await timed(`${twin.apiUrl}/v1/profile`, apiKey));
    }
    const a = summary(jwtSamples);
    const b = summary(keySamples);
    console.log(`${label}: ${CALLS} calls each, one at a time`);
    console.log(`  GET /profile     (JWT)      p50 ${ms(a.p50)}  p95 ${ms(a.p95)}`);
    console.log(`  GET /v1/profile  (API key)  p50 ${ms(b.p50)}  p95 ${ms(b.p95)}`);
    console.log(`  added by key auth           p50 ${ms(b.p50 - a.p50)}  p95 ${ms(b.p95 - a.p95)}`);
  } finally {
    await twin.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The caller gate's read, timed alone (the in-process cost every user route and every /v1 call pays). */
async function callerGateRead(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'modelloop-bench-gate-'));
  const twin = await startTwin({ dataDir });
  try {
    Object.assign(process.env, twin.info.env);
    const { readCallerStanding } = await import('../lambdas/data/account-repo.js');
    const user = await createUser(twin.info);
    const { id: keyId } = await createApiKey(twin.apiUrl, user, 'bench');
    await timed(`${twin.apiUrl}/profile`, { authorization: `Bearer ${user.idToken}` });
    const time = async (keyIdOrNone?: string) => {
      const samples: number[] = [];
      for (let i = 0; i < CALLS + 20; i++) {
        const started = performance.now();
        await readCallerStanding(user.sub, keyIdOrNone);
        if (i >= 20) samples.push(performance.now() - started);
      }
      return summary(samples);
    };
    const token = await time();
    const key = await time(keyId);
    console.log(`caller gate (one consistent BatchGetItem before every user route), ${CALLS} reads each, DynamoDB Local`);
    console.log(`  ID token caller (profile)          p50 ${ms(token.p50)}  p95 ${ms(token.p95)}`);
    console.log(`  API key caller  (profile + key)    p50 ${ms(key.p50)}  p95 ${ms(key.p95)}`);
  } finally {
    await twin.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

// ——— Webhook delivery delay (from a generation's completion to the receiver, p50/p95): added with the webhooks. ———
async function webhookDelay(): Promise<void> {
  console.log('webhook delivery delay: not measured here yet (webhooks are delivered by their own work).');
}

// Every key call counts against its key's rate; here the limit is out of the way.
process.env.USER_LIMITS = JSON.stringify({ rates: { apiKey: { limit: 1_000_000, windowSeconds: 1 } } });
// The handlers' clients are made once per process (as in a Lambda), so each twin runs in a process of its own.
const phase = process.argv[2];
if (phase === 'warm') await keyAuthLatency(`authorizer cache warm (answers reused ${API_KEY_AUTH_CACHE_SECONDS} s)`, API_KEY_AUTH_CACHE_SECONDS);
else if (phase === 'cold') await keyAuthLatency('authorizer cache cold (authorizer on every call)', 0);
else if (phase === 'gate') await callerGateRead();
else {
  for (const next of ['warm', 'cold', 'gate']) execFileSync(process.execPath, [...process.execArgv, process.argv[1]!, next], { stdio: ['ignore', 'inherit', 'ignore'] });
  await webhookDelay();
}
