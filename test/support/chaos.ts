// The chaos suite (`npm run chaos`, and a short form in test/integration/chaos.test.ts): a twin of its own
// (`npm start`'s process, so it can be killed for real) with the local engine's fault knob on, a mixed load of
// spending operations from several users — images, edits, upscales, videos of 1–5 outputs, cancels, retries of a
// request with the same Idempotency-Key, batches — one SIGKILL of the whole twin and a restart on the same data and
// ports in the middle of it, and then the money audit straight from DynamoDB:
//   - every generation, batch photo, video job and batch has ended;
//   - every failed generation or photo and every failed, cancelled or partly delivered job is refunded exactly once,
//     by what it did not deliver, naming its own debit; nothing else is refunded;
//   - no debit is refunded past what it took, and each debit's `refundable` is what is left of it;
//   - each balance is the sum of its ledger, and equals grants + purchases − what was delivered (the local engine is
//     not a paid provider, so nothing is "running at a paid provider" once all has ended);
//   - no answer was a 5xx except while the twin was down.
// A request cut by the kill is retried with the same Idempotency-Key once the twin is back, as a client would.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BATCH_CAMERA_ANGLES } from '../../lambdas/contracts/catalog.js';
import { FAULT_KINDS, FAULT_LOG_MESSAGE, LOCAL_ENGINE_FAULTS_ENV, type FaultKind } from '../../lambdas/providers/local-engine/faults.js';
import { createUser, signIn, type LocalUser } from '../../lib/local/users.js';
import type { TwinInfo } from '../../lib/local/twin.js';
import { tshirtPhoto } from '../fixtures/local-engine-images.js';
import { exited, freeTwinPorts, killTree, startTwinProcess, type TwinProcess } from './twin-process.js';

export const OPERATION_KINDS = ['image', 'edit', 'upscale', 'video', 'cancel', 'retry', 'batch'] as const;
export type OperationKind = (typeof OPERATION_KINDS)[number];

export interface ChaosOptions {
  users: number;
  operations: number;
  /** Kill the twin (SIGKILL of its process tree) after this share of the operations, then start it again. */
  killAfter?: number;
  /** The local engine's fault rates before and after the kill (MODELLOOP_LOCAL_ENGINE_FAULTS syntax). */
  faults?: string;
  faultsAfterKill?: string;
  /** Relative weights of the operation kinds. */
  mix?: Partial<Record<OperationKind, number>>;
  seed?: number;
  /** How long to wait for every record to end after the load. */
  settleTimeoutMs?: number;
  log?: (line: string) => void;
}

export interface ChaosReport {
  users: number;
  operations: Record<OperationKind, number>;
  answers: Record<string, number>;
  /** API Gateway's integration timeout (29 s, the local gateway's 503 `Service Unavailable`) outside the kill: a machine too loaded, not a handler's error. */
  gatewayTimeouts: number;
  retriedAfterKill: number;
  faults: Record<FaultKind, number>;
  records: { generations: number; photos: number; jobs: number; batches: number; failed: number; cancelled: number };
  credits: { granted: number; purchased: number; debited: number; refunded: number; delivered: number; refunds: number };
  kill: { atMs: number; downMs: number } | undefined;
  durationMs: number;
  violations: string[];
}

/** Slow calls hang past every task's timeout; only the kill (and the settle at the next start) ends them. */
export const DEFAULT_FAULTS = 'transient=0.1,permanent=0.07,slow=0.03,crash=0.05';
export const DEFAULT_FAULTS_AFTER_KILL = 'transient=0.1,permanent=0.07,crash=0.05';
const DEFAULT_MIX: Record<OperationKind, number> = { image: 30, edit: 12, upscale: 10, video: 10, cancel: 8, retry: 15, batch: 10 };
const CREDITS_PER_USER = 400;

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Answer {
  status: number;
  body: any;
}

interface SpendingRequest {
  path: string;
  body: unknown;
  key: string;
  /** The id of what it started, from its first 200 answer. */
  startedId?: string;
}

interface Actor {
  email: string;
  user: LocalUser;
  clothing: { id: string; imageKey: string };
  spent: SpendingRequest[];
  jobs: string[];
}

const startedIdOf = (body: any): string | undefined => body?.generationId ?? body?.jobId ?? body?.batchId;

let portsOfThisProcess: Awaited<ReturnType<typeof freeTwinPorts>> | undefined;

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const started = Date.now();
  const log = options.log ?? (() => {});
  const random = mulberry32(options.seed ?? 1);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const violations: string[] = [];
  const answers: Record<string, number> = {};
  const operations = Object.fromEntries(OPERATION_KINDS.map((kind) => [kind, 0])) as Record<OperationKind, number>;
  const faults = Object.fromEntries(FAULT_KINDS.map((kind) => [kind, 0])) as Record<FaultKind, number>;
  let retriedAfterKill = 0;
  let gatewayTimeouts = 0;
  /** What the client saw for each Idempotency-Key, in order (to explain a finding). */
  const seen = new Map<string, string[]>();
  const saw = (key: string | undefined, what: string) => key && seen.set(key, [...(seen.get(key) ?? []), what]);

  const dataDir = mkdtempSync(join(tmpdir(), 'modelloop-chaos-'));
  // Every run of one process uses the same ports: the AWS SDK clients the audit loads are made once, at module scope,
  // with the first run's endpoints (each run's twin has stopped before the next one starts).
  const ports = (portsOfThisProcess ??= await freeTwinPorts());
  let partial = '';
  const countFaults = (text: string) => {
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.includes(FAULT_LOG_MESSAGE)) continue;
      const kind = /"kind":"(\w+)"/.exec(line)?.[1] as FaultKind | undefined;
      if (kind && kind in faults) faults[kind] += 1;
    }
  };
  const start = (faultRates: string) =>
    // One JSON line per log entry (not the indented development form), so each fault line is read whole.
    startTwinProcess({ dataDir, ports, env: { [LOCAL_ENGINE_FAULTS_ENV]: faultRates, POWERTOOLS_DEV: 'false' }, onOutput: countFaults });

  let twin: TwinProcess | undefined;
  try {
    twin = await start(options.faults ?? DEFAULT_FAULTS);
    let info: TwinInfo = twin.info;
    Object.assign(process.env, info.env);
    const audit = await import('./chaos-audit.js');
    log(`twin up at ${info.apiUrl} (data ${dataDir})`);

    // The twin may be down (the kill): requests wait for it and go again with the same key.
    let down: Promise<void> | undefined;
    let killWindow: { from: number; to: number } | undefined;
    const call = async (actor: Actor, method: string, path: string, body?: unknown, key?: string): Promise<Answer> => {
      for (let attempt = 0; ; attempt++) {
        if (down) await down;
        const sentAt = Date.now();
        try {
          const response = await fetch(`${info.apiUrl}${path}`, {
            method,
            headers: {
              authorization: `Bearer ${actor.user.idToken}`,
              ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
              ...(key ? { 'idempotency-key': key } : {}),
            },
            body: body === undefined ? undefined : JSON.stringify(body),
            signal: AbortSignal.timeout(60_000),
          });
          const text = await response.text();
          const answer: Answer = { status: response.status, body: text ? JSON.parse(text) : undefined };
          answers[String(answer.status)] = (answers[String(answer.status)] ?? 0) + 1;
          saw(key, `${answer.status}${answer.body?.code ? ` ${answer.body.code}` : ''}${killWindow ? (sentAt > killWindow.to ? ' after the kill' : ' before or during the kill') : ''}`);
          if (answer.status >= 500) {
            // Excused only when the request overlapped the time the twin was down.
            const inKill = killWindow !== undefined && sentAt <= killWindow.to && Date.now() >= killWindow.from;
            const gatewayTimeout = answer.status === 503 && answer.body?.message === 'Service Unavailable' && answer.body.code === undefined;
            if (!inKill && gatewayTimeout) gatewayTimeouts += 1;
            else if (!inKill) violations.push(`${method} ${path} answered ${answer.status} ${text.slice(0, 200)} outside the kill`);
          }
          return answer;
        } catch (error) {
          // The connection died with the twin: wait until it is back and send the same request again.
          if (attempt >= 3 || !(down || killWindow)) throw error;
          answers.network = (answers.network ?? 0) + 1;
          saw(key, 'connection lost');
          retriedAfterKill += 1;
          await new Promise((resolveWait) => setTimeout(resolveWait, 500));
        }
      }
    };

    const product = await tshirtPhoto(240, 288);
    const productBase64 = product.toString('base64');
    const actors: Actor[] = [];
    for (let index = 0; index < options.users; index++) {
      const email = `chaos-${index}-${randomUUID().slice(0, 8)}@example.com`;
      const user = await createUser(info, email);
      const actor = { email, user, clothing: { id: '', imageKey: '' }, spent: [], jobs: [] } as Actor;
      const bought = await call(actor, 'POST', '/credits/purchase', { credits: CREDITS_PER_USER }, randomUUID());
      if (bought.status !== 200) throw new Error(`buying credits answered ${bought.status}: ${JSON.stringify(bought.body)}`);
      const upload = await call(actor, 'POST', '/clothing-items/upload-url', { fileName: 'tshirt.jpg', contentType: 'image/jpeg', sizeBytes: product.length });
      const put = await fetch(upload.body.uploadUrl, { method: 'PUT', headers: upload.body.headers, body: product });
      if (put.status !== 200) throw new Error(`upload answered ${put.status}`);
      const item = await call(actor, 'POST', '/clothing-items', { imageKey: upload.body.imageKey, name: `Chaos tee ${index}` });
      if (item.status !== 201) throw new Error(`registering a clothing item answered ${item.status}: ${JSON.stringify(item.body)}`);
      actor.clothing = { id: item.body.id, imageKey: item.body.image_url };
      actors.push(actor);
    }
    log(`${actors.length} users with ${CREDITS_PER_USER} credits and a clothing item each`);

    const mix = { ...DEFAULT_MIX, ...options.mix };
    const totalWeight = OPERATION_KINDS.reduce((sum, kind) => sum + mix[kind], 0);
    const drawKind = (): OperationKind => {
      let draw = random() * totalWeight;
      for (const kind of OPERATION_KINDS) {
        draw -= mix[kind];
        if (draw < 0) return kind;
      }
      return 'image';
    };
    const plan: { actor: Actor; kind: OperationKind; draws: number[] }[] = [];
    for (let index = 0; index < options.operations; index++) {
      plan.push({ actor: actors[index % actors.length]!, kind: drawKind(), draws: [random(), random(), random()] });
    }

    const spend = async (actor: Actor, path: string, body: unknown): Promise<Answer> => {
      const request: SpendingRequest = { path, body, key: randomUUID() };
      actor.spent.push(request);
      let answer = await call(actor, 'POST', path, body, request.key);
      // A client that got no answer in time (the gateway's 29 s, or "busy, retry") does not know whether it was charged:
      // it sends the same request again with the same key (the web app keeps the key for a retried request). Otherwise
      // a charge whose request was cut after it (by the kill) is only given back by the scheduled reconciler, after the audit.
      for (let attempt = 0; answer.status === 503 && attempt < 3; attempt++) {
        await new Promise((resolveWait) => setTimeout(resolveWait, 2000));
        answer = await call(actor, 'POST', path, body, request.key);
      }
      if (answer.status === 200) request.startedId = startedIdOf(answer.body);
      return answer;
    };
    const video = (actor: Actor, draw: number) =>
      spend(actor, '/generate-video', { imageBase64: productBase64, prompt: pick(['Pivot', 'Catwalk', '360 Spin']), duration: 5, aspect_ratio: '1:1', output_count: [1, 3, 5][Math.floor(draw * 3)] });

    const run = async (actor: Actor, kind: OperationKind, draws: number[]): Promise<void> => {
      operations[kind] += 1;
      switch (kind) {
        case 'image':
          await spend(actor, '/generate-ai-image', { imageData: productBase64, prompt: 'young female model', imageSize: '1k' });
          return;
        case 'edit':
          await spend(actor, '/edit-ai-image', { imageUrl: actor.clothing.imageKey, editPrompt: 'background white' });
          return;
        case 'upscale':
          await spend(actor, '/upscale-ai-image', { imageUrl: actor.clothing.imageKey, targetResolution: '2k' });
          return;
        case 'video': {
          const answer = await video(actor, draws[0]!);
          if (answer.status === 200) actor.jobs.push(answer.body.jobId);
          return;
        }
        case 'cancel': {
          // Cancels the user's last video while it runs (or one started just for this).
          let jobId = actor.jobs.pop();
          if (!jobId) {
            const answer = await video(actor, draws[0]!);
            if (answer.status !== 200) return;
            jobId = answer.body.jobId as string;
          }
          const cancelled = await call(actor, 'POST', `/jobs/${encodeURIComponent(jobId)}/cancel`);
          if (![200, 409].includes(cancelled.status) && cancelled.status < 500) {
            violations.push(`cancel of ${jobId} answered ${cancelled.status} ${JSON.stringify(cancelled.body)}`);
          }
          return;
        }
        case 'retry': {
          // The same request again with the same key: the same record, never a second charge.
          const earlier = actor.spent.filter((request) => request.startedId);
          if (earlier.length === 0) {
            await spend(actor, '/generate-ai-image', { imageData: productBase64, prompt: 'retried model', imageSize: '1k' });
            return;
          }
          const request = earlier[Math.floor(draws[0]! * earlier.length)]!;
          const again = await call(actor, 'POST', request.path, request.body, request.key);
          if (again.status === 200 && startedIdOf(again.body) !== request.startedId) {
            violations.push(`a retry of ${request.path} with key ${request.key} answered ${startedIdOf(again.body)}, first ${request.startedId}`);
          } else if (again.status !== 200 && again.status !== 429 && again.status < 500) {
            violations.push(`a retry of ${request.path} with key ${request.key} answered ${again.status} ${JSON.stringify(again.body)}`);
          }
          return;
        }
        case 'batch': {
          const angles = [...BATCH_CAMERA_ANGLES].sort(() => draws[1]! - 0.5).slice(0, 1 + Math.floor(draws[0]! * 3));
          await spend(actor, '/generate-batch', { batchItems: [{ clothingItemId: actor.clothing.id, cameraAngles: angles, prompt: 'young model' }], imageSize: '1k' });
          return;
        }
      }
    };

    // Each user works through its operations in order; the users run at once. The kill comes after a share of them.
    const killAt = options.killAfter === undefined ? undefined : Math.floor(options.operations * options.killAfter);
    let done = 0;
    let kill: ChaosReport['kill'];
    let killing: Promise<void> | undefined;
    const killAndRestart = async () => {
      const from = Date.now();
      let back!: () => void;
      down = new Promise((resolveBack) => (back = resolveBack));
      killWindow = { from, to: Number.POSITIVE_INFINITY };
      log(`SIGKILL of the twin's process tree after ${done} operations`);
      killTree(twin!.child, 'SIGKILL');
      await exited(twin!.child);
      twin = await start(options.faultsAfterKill ?? DEFAULT_FAULTS_AFTER_KILL);
      info = twin.info;
      for (const actor of actors) actor.user = await signIn(info, actor.email);
      killWindow.to = Date.now();
      kill = { atMs: from - started, downMs: Date.now() - from };
      log(`twin back after ${kill.downMs} ms`);
      down = undefined;
      back();
    };
    await Promise.all(
      actors.map(async (actor) => {
        for (const step of plan.filter((entry) => entry.actor === actor)) {
          await run(actor, step.kind, step.draws);
          done += 1;
          if (killAt !== undefined && done >= killAt && !killing) killing = killAndRestart();
        }
      }),
    );
    await killing;
    log(`load done: ${JSON.stringify(operations)}; answers ${JSON.stringify(answers)}`);

    const users = actors.map((actor) => actor.user.sub);
    const settled = await audit.waitUntilSettled(users, options.settleTimeoutMs ?? 300_000, log);
    if (!settled) violations.push('some records were still in flight when the wait ended');
    const result = await audit.auditMoney(users);
    // A finding about a debit says what its request saw.
    violations.push(
      ...result.violations.map((violation) => {
        const key = /debit debit#(\S+)/.exec(violation)?.[1];
        return key && seen.has(key) ? `${violation}; its request saw: ${seen.get(key)!.join(', ')}` : violation;
      }),
    );
    return {
      users: actors.length,
      operations,
      answers,
      gatewayTimeouts,
      retriedAfterKill,
      faults,
      records: result.records,
      credits: result.credits,
      kill,
      durationMs: Date.now() - started,
      violations,
    };
  } finally {
    if (twin) {
      killTree(twin.child, 'SIGTERM');
      await exited(twin.child).catch(() => killTree(twin!.child, 'SIGKILL'));
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export function formatReport(report: ChaosReport): string {
  const c = report.credits;
  return [
    `chaos: ${Object.values(report.operations).reduce((a, b) => a + b, 0)} operations from ${report.users} users in ${(report.durationMs / 1000).toFixed(1)} s`,
    `  by kind:   ${OPERATION_KINDS.map((kind) => `${kind} ${report.operations[kind]}`).join(', ')}`,
    `  answers:   ${Object.entries(report.answers).map(([status, count]) => `${status} ×${count}`).join(', ')}; ${report.retriedAfterKill} resent after the kill; ${report.gatewayTimeouts} integration timeouts (29 s) outside the kill`,
    `  faults:    ${FAULT_KINDS.map((kind) => `${kind} ${report.faults[kind]}`).join(', ')}`,
    `  kill:      ${report.kill ? `at ${(report.kill.atMs / 1000).toFixed(1)} s, down ${(report.kill.downMs / 1000).toFixed(1)} s` : 'none'}`,
    `  records:   ${report.records.generations} generations, ${report.records.photos} batch photos, ${report.records.jobs} video jobs, ${report.records.batches} batches; ${report.records.failed} failed, ${report.records.cancelled} cancelled`,
    `  credits:   granted ${c.granted}, purchased ${c.purchased}, debited ${c.debited}, refunded ${c.refunded} in ${c.refunds} refunds, delivered ${c.delivered}`,
    report.violations.length ? `  VIOLATIONS (${report.violations.length}):\n${report.violations.map((v) => `    - ${v}`).join('\n')}` : '  invariants: all hold',
  ].join('\n');
}
