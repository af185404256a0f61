// Vitest global setup for the integration and e2e layers: one local twin on free ports in a throw-away directory,
// stopped when the layer ends. Tests read its addresses with inject('twin').
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { startTwin, type Twin, type TwinInfo } from '../../lib/local/twin.js';

export type { TwinInfo };

declare module 'vitest' {
  export interface ProvidedContext {
    twin: TwinInfo;
  }
}

let twin: Twin | undefined;
let dataDir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  dataDir = mkdtempSync(join(tmpdir(), 'modelloop-twin-'));
  twin = await startTwin({
    dataDir,
    webRoot: resolve(import.meta.dirname, '../../web/dist'),
    // The labelled local test payment, whatever Stripe settings the shell has (payments tests start their own twin).
    stripe: false,
    log: (source, line) => {
      if (process.env.TWIN_LOG || /exception|error/i.test(line)) console.log(`[twin:${source}] ${line}`);
    },
  });
  project.provide('twin', twin.info);
}

export async function teardown(): Promise<void> {
  await twin?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
