// Vitest global setup for the integration and e2e layers: one local twin on free ports in a throw-away directory,
// stopped when the layer ends. Tests read its addresses with inject('twin').
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { startTwin, type Twin, type TwinInfo } from '../../lib/local/twin.js';
import { startSampleShop, type SampleShop } from './sample-shop.js';

export type { TwinInfo };

declare module 'vitest' {
  export interface ProvidedContext {
    twin: TwinInfo;
    /** The local sample web shop the import tests paste links of (the twin's fetch guard allows its port). */
    sampleShopUrl: string;
  }
}

let twin: Twin | undefined;
let dataDir: string | undefined;
let sampleShop: SampleShop | undefined;

export async function setup(project: TestProject): Promise<void> {
  // The shared twin takes ESRGAN for small sources only (the engine's old line, 120,000 px): the suite's many 1K
  // upscales check routes, charges and sizes, and ESRGAN on each (6–10 s on onnxruntime, several times that on a
  // 2-core machine busy with the rest of the suite) would slow the other tests. ESRGAN at the real line is tested in
  // test/unit/local-engine*.test.ts and test/infra/lean-functions.
  process.env.PREVIEW_ESRGAN_MAX_PIXELS ??= '120000';
  dataDir = mkdtempSync(join(tmpdir(), 'modelloop-twin-'));
  sampleShop = await startSampleShop();
  twin = await startTwin({
    dataDir,
    testFetchTargets: [`127.0.0.1:${sampleShop.port}`],
    webRoot: resolve(import.meta.dirname, '../../web/dist'),
    // The labelled local test payment, whatever Stripe settings the shell has (payments tests start their own twin).
    stripe: false,
    // The suite's files share this twin and run side by side: their combined rate is no single client's, so the
    // stage throttle is left to its own test (test/unit/gateway-limits.test.ts) and to `npm start`.
    throttle: false,
    log: (source, line) => {
      if (process.env.TWIN_LOG || /exception|error/i.test(line)) console.log(`[twin:${source}] ${line}`);
    },
  });
  project.provide('twin', twin.info);
  project.provide('sampleShopUrl', sampleShop.url);
}

export async function teardown(): Promise<void> {
  await twin?.stop();
  await sampleShop?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
