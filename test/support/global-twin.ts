// Vitest global setup for the integration and e2e layers: one local twin on free ports in a throw-away directory,
// stopped when the layer ends. Tests read its addresses with inject('twin').
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { startTwin, type Twin } from '../../lib/local/twin.js';

export interface TwinInfo {
  webUrl: string;
  apiUrl: string;
  /** The local WebSocket API: connect with ?token=<ID token>. */
  websocketUrl: string;
  cognitoEndpoint: string;
  userPoolId: string;
  userPoolClientId: string;
  region: string;
  mailboxFile: string;
  /** The environment the handlers run with (table and bucket names, endpoints). */
  env: Record<string, string>;
}

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
    log: (source, line) => {
      if (process.env.TWIN_LOG || /exception|error/i.test(line)) console.log(`[twin:${source}] ${line}`);
    },
  });
  project.provide('twin', {
    webUrl: twin.webUrl,
    apiUrl: twin.apiUrl,
    websocketUrl: twin.websocketUrl,
    cognitoEndpoint: twin.config.cognitoEndpoint!,
    userPoolId: twin.config.userPoolId,
    userPoolClientId: twin.config.userPoolClientId,
    region: twin.config.region,
    mailboxFile: twin.mailboxFile,
    env: twin.env,
  });
}

export async function teardown(): Promise<void> {
  await twin?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
