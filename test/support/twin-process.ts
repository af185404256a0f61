// `npm start`'s twin (bin/local.ts) as a separate process in its own process group, on a given data folder and
// ports, so that a test can kill the whole tree (DynamoDB Local and cognito-local too) with a real SIGKILL and start
// it again on the same folder and ports.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { freePort } from '../../lib/local/processes.js';
import { PORT_ENV, TWIN_INFO_FILE, type TwinInfo, type TwinPorts } from '../../lib/local/twin.js';

const root = resolve(import.meta.dirname, '../..');

export interface TwinProcess {
  child: ChildProcess;
  info: TwinInfo;
  /** Everything the process printed so far (stdout and stderr). */
  output: () => string;
}

/** Free ports for every service of a twin, as the PORT_ENV variables that set them. */
export async function freeTwinPorts(): Promise<Record<string, string>> {
  const ports: Record<string, string> = {};
  for (const name of Object.keys(PORT_ENV) as (keyof TwinPorts)[]) ports[PORT_ENV[name]] = String(await freePort());
  return ports;
}

export async function startTwinProcess(options: {
  dataDir: string;
  ports?: Record<string, string>;
  env?: Record<string, string>;
  onOutput?: (text: string) => void;
  /** What starts it: by default the command `npm run twin` runs (bin/local.ts in this very process, no wrapper). */
  command?: [string, ...string[]];
}): Promise<TwinProcess> {
  const { dataDir } = options;
  rmSync(join(dataDir, TWIN_INFO_FILE), { force: true });
  const ports = options.ports ?? (await freeTwinPorts());
  const [command, ...args] = options.command ?? [process.execPath, '--import', 'tsx', 'bin/local.ts'];
  const child = spawn(command, args, {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...ports, ...options.env, MODELLOOP_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
  });
  let output = '';
  const take = (chunk: Buffer) => {
    const text = chunk.toString();
    output += text;
    options.onOutput?.(text);
  };
  child.stdout!.on('data', take);
  child.stderr!.on('data', take);
  // Four minutes: a start takes seconds on an idle machine, and up to two minutes on a 2-core one that runs much else.
  const deadline = Date.now() + 240_000;
  while (!existsSync(join(dataDir, TWIN_INFO_FILE))) {
    if (child.exitCode !== null) throw new Error(`npm start exited: ${output}`);
    if (Date.now() > deadline) {
      killTree(child, 'SIGKILL');
      throw new Error(`npm start not ready: ${output}`);
    }
    await new Promise((resolveWait) => setTimeout(resolveWait, 200));
  }
  const info = JSON.parse(readFileSync(join(dataDir, TWIN_INFO_FILE), 'utf8')) as TwinInfo;
  return { child, info, output: () => output };
}

/** Until every process of the child's group is gone (the emulators too: they hold the data folder and the ports). */
export async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) await new Promise((resolveExit) => child.once('exit', resolveExit));
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      process.kill(-child.pid!, 0);
    } catch {
      return;
    }
    if (Date.now() > deadline) throw new Error(`processes of group ${child.pid} still running`);
    await new Promise((resolveWait) => setTimeout(resolveWait, 200));
  }
}

export function killTree(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // already gone
  }
}
