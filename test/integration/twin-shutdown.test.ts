// The twin as `npm start` runs it, from the outside: every port of it listens on the loopback interface only (DynamoDB
// Local included), DynamoDB answers only requests signed with the twin's own credentials, a SIGTERM to `npm run twin`
// reaches the twin, and a twin killed with SIGKILL takes every emulator with it: no process of it, no port of it left;
// nor does a SIGKILL of the top `npm start`, two npm levels above the twin.
import { readdirSync, readFileSync, readlinkSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCAL_CREDENTIALS } from '../../lib/local/s3-local.js';
import { assertPortFree } from '../../lib/local/processes.js';
import { PORT_ENV, TWIN_INFO_FILE } from '../../lib/local/twin.js';
import { freeTwinPorts, killTree, startTwinProcess, type TwinProcess } from '../support/twin-process.js';

const dataDir = mkdtempSync(join(tmpdir(), 'modelloop-shutdown-'));
const started: TwinProcess[] = [];

afterAll(() => {
  for (const twin of started) killTree(twin.child, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** Every process of the group the twin was started in (it and all it started, unless one left the group). */
function groupProcesses(groupId: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // fields[0] is the state, fields[2] the process group; a zombie holds nothing.
      if (Number(fields[2]) === groupId && fields[0] !== 'Z') pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

interface Listener {
  address: string;
  port: number;
}

/** The TCP sockets these processes listen on, from /proc/net/tcp{,6} (state 0A) matched by socket inode. */
function listeners(pids: number[]): Listener[] {
  const inodes = new Set<string>();
  for (const pid of pids) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        const target = (() => {
          try {
            return readlinkSync(`/proc/${pid}/fd/${fd}`);
          } catch {
            return '';
          }
        })();
        const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
        if (inode) inodes.add(inode);
      }
    } catch {
      // gone meanwhile
    }
  }
  const found: Listener[] = [];
  for (const [file, decode] of [
    ['/proc/net/tcp', ipv4],
    ['/proc/net/tcp6', ipv6],
  ] as const) {
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10 || fields[3] !== '0A' || !inodes.has(fields[9]!)) continue;
      const [hexAddress, hexPort] = fields[1]!.split(':') as [string, string];
      found.push({ address: decode(hexAddress), port: parseInt(hexPort, 16) });
    }
  }
  return found;
}

function ipv4(hex: string): string {
  return [3, 2, 1, 0].map((index) => parseInt(hex.slice(index * 2, index * 2 + 2), 16)).join('.');
}

function ipv6(hex: string): string {
  const words: string[] = [];
  for (let group = 0; group < 4; group++) {
    const word = hex.slice(group * 8, group * 8 + 8);
    const bytes = [3, 2, 1, 0].map((index) => word.slice(index * 2, index * 2 + 2)).join('');
    words.push(bytes.slice(0, 4), bytes.slice(4, 8));
  }
  const full = words.map((word) => parseInt(word, 16).toString(16)).join(':');
  if (full === '0:0:0:0:0:0:0:1') return '::1';
  if (full.startsWith('0:0:0:0:0:ffff:')) return `::ffff:${ipv4(hex.slice(24))}`;
  return full;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 100));
  }
}

const ports = (twin: TwinProcess) => Object.values(twin.info.env).flatMap((value) => /^http:\/\/127\.0\.0\.1:(\d+)/.exec(value)?.[1] ?? []).map(Number);

describe('the twin as npm start runs it', () => {
  it('listens on loopback only, takes only its own credentials, and stops whole on SIGTERM to `npm run twin`', async () => {
    const twin = await startTwinProcess({ dataDir, command: ['npm', 'run', '--silent', 'twin'] });
    started.push(twin);
    const group = twin.child.pid!;

    const bound = listeners(groupProcesses(group));
    const held = bound.map((listener) => listener.port);
    // The gateway, s3rver, cognito-local, Step Functions, the DynamoDB proxy and the jar behind it.
    expect(bound.length).toBeGreaterThanOrEqual(6);
    expect(bound.filter((listener) => !LOOPBACK.has(listener.address))).toEqual([]);

    const endpoint = twin.info.env.AWS_ENDPOINT_URL_DYNAMODB!;
    const dynamo = (credentials: { accessKeyId: string; secretAccessKey: string }) =>
      new DynamoDBClient({ endpoint, region: twin.info.region, credentials, maxAttempts: 1 });
    await expect(dynamo({ accessKeyId: 'someone-else', secretAccessKey: 'x' }).send(new ListTablesCommand({}))).rejects.toMatchObject({
      name: 'UnrecognizedClientException',
    });
    await expect(dynamo({ ...LOCAL_CREDENTIALS, secretAccessKey: 'a-guess' }).send(new ListTablesCommand({}))).rejects.toMatchObject({
      name: 'InvalidSignatureException',
    });
    expect((await dynamo(LOCAL_CREDENTIALS).send(new ListTablesCommand({}))).TableNames?.length).toBeGreaterThan(0);

    // SIGTERM to npm's own process only (as a process manager or an IDE stops it): it reaches the twin, which stops.
    process.kill(group, 'SIGTERM');
    await until(() => groupProcesses(group).length === 0, 'every process of the twin to end after SIGTERM', 90_000);
    expect(listeners(allProcesses()).filter((listener) => held.includes(listener.port))).toEqual([]);
    expect(held).toEqual(expect.arrayContaining(ports(twin)));
  }, 420_000);

  it('leaves no process and no port behind when the twin is killed with SIGKILL', async () => {
    const twin = await startTwinProcess({ dataDir });
    started.push(twin);
    const group = twin.child.pid!;
    const children = groupProcesses(group).filter((pid) => pid !== group);
    expect(children.length).toBeGreaterThanOrEqual(2); // DynamoDB Local and cognito-local at least
    const held = listeners(groupProcesses(group)).map((listener) => listener.port);

    // Only the twin's own process: nothing can catch SIGKILL, so the emulators must notice on their own.
    process.kill(group, 'SIGKILL');
    await until(() => groupProcesses(group).length === 0, 'every emulator to end after the twin was killed', 30_000);
    const stillBound = listeners(allProcesses()).filter((listener) => held.includes(listener.port));
    expect(stillBound).toEqual([]);
  }, 420_000);
});

function allProcesses(): number[] {
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).map(Number);
}

describe('npm start', () => {
  it("stops every emulator when its top process is killed with SIGKILL: all six ports (the Shopify stand-in's too) free within 5 s", async () => {
    const ports = await freeTwinPorts();
    // `npm start` as a person types it: npm → a shell that builds the web app and execs `npm run twin` → the twin.
    const twin = await startTwinProcess({ dataDir, ports, command: ['npm', 'start', '--silent'] });
    started.push(twin);
    const top = twin.child.pid!;
    const twinPid = (JSON.parse(readFileSync(join(dataDir, TWIN_INFO_FILE), 'utf8')) as { pid: number }).pid;
    // Two npm levels: the twin's parent is `npm run twin`, whose parent is the `npm start` killed here.
    expect(procParent(procParent(twinPid))).toBe(top);
    const held = Object.values(ports).map(Number);
    expect(held).toHaveLength(6);
    expect(held).toHaveLength(Object.keys(PORT_ENV).length);
    expect(await portsInUse(held)).toEqual(held);

    // Only npm's own process, as a process manager's SIGKILL ends it: nothing can pass it on.
    process.kill(top, 'SIGKILL');
    const killedAt = Date.now();
    let taken = held;
    while (taken.length && Date.now() - killedAt < 5_000) {
      await new Promise((resolveWait) => setTimeout(resolveWait, 100));
      taken = await portsInUse(held);
    }
    console.log(`npm start SIGKILLed: ports still in use after ${Date.now() - killedAt} ms: ${JSON.stringify(taken)}`);
    expect(taken).toEqual([]);
    await until(() => groupProcesses(top).length === 0, 'every process of npm start to end', 30_000);
  }, 420_000);
});

/** A process's parent pid, from /proc. */
function procParent(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
}

/** The ports someone still listens on (binding 127.0.0.1 fails). */
async function portsInUse(ports: number[]): Promise<number[]> {
  const taken: number[] = [];
  for (const port of ports) {
    if (await assertPortFree(port, 'test', 'none').then(() => false, () => true)) taken.push(port);
  }
  return taken;
}
