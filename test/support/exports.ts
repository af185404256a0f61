// "Download my data" as the web app drives it: POST /account/export answers 202 at once; the zip is workflow work,
// read through GET /account/export once its export is ready.
import { expect } from 'vitest';
import type { AccountExport } from '../../lambdas/contracts/account.js';
import { api } from './api.js';
import type { TestUser } from './users.js';

/** The export `exportId` once it has ended (ready or failed), read as the web app reads it. */
export async function exportEnded(apiUrl: string, user: TestUser, exportId: string, timeoutMs = 240_000): Promise<AccountExport> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const latest = await api<{ export: AccountExport | null }>(apiUrl, 'GET', '/account/export', { user });
    expect(latest.status, JSON.stringify(latest.body)).toBe(200);
    const current = latest.body.export;
    if (current?.exportId === exportId && current.status !== 'building') return current;
    if (Date.now() > deadline) throw new Error(`export ${exportId} still building: ${JSON.stringify(current)}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/** Asks for an export, waits for it, and answers the zip's bytes with the ready export. */
export async function exportAndDownload(apiUrl: string, user: TestUser): Promise<{ ready: AccountExport; zip: Buffer }> {
  const started = await api<AccountExport>(apiUrl, 'POST', '/account/export', { user });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  const ready = await exportEnded(apiUrl, user, started.body.exportId);
  expect(ready.status).toBe('ready');
  const download = await fetch(ready.url!);
  expect(download.status).toBe(200);
  return { ready, zip: Buffer.from(await download.arrayBuffer()) };
}
