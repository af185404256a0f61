// Child processes of the local twin and waiting for servers to come up.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A free TCP port on the loopback interface, below the system's ephemeral range: a port from that range (what
 * listen(0) hands out) is free only until some outgoing connection takes it as its local port, and a twin binds its
 * ports later (a child process, or again after a kill). Measured: the chaos test's restarted twin failed with
 * EADDRINUSE on such a port while the integration layer's own twin held connections. Falls back to listen(0).
 */
export async function freePort(): Promise<number> {
  const [low, high] = BELOW_EPHEMERAL;
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (await canListen(port)) return port;
  }
  return listenOnce(0);
}

/** The ports freePort picks from: below the ephemeral range (Linux's `ip_local_port_range`, 32768 by default). */
const BELOW_EPHEMERAL: [number, number] = (() => {
  let ephemeralLow = 32768;
  try {
    ephemeralLow = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || ephemeralLow;
  } catch {
    // Not Linux: keep the IANA dynamic range's usual floor.
  }
  return [Math.max(1024, ephemeralLow - 12_000), ephemeralLow];
})();

const canListen = (port: number) => listenOnce(port).then(() => true, () => false);

function listenOnce(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Fails with a clear message when a fixed port is already taken. */
export async function assertPortFree(port: number, what: string, envName: string): Promise<void> {
  if (!(await canListen(port))) throw new Error(`Port ${port} for ${what} is already in use. Stop what uses it, or set ${envName} to another port.`);
}

export interface Child {
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts a child whose output lines go to `onLine`; stop() ends it (SIGTERM, then SIGKILL after 5 s). */
export function startChild(
  command: string,
  args: string[],
  options: SpawnOptions & { name: string; onLine: (line: string) => void },
): Child {
  // Every emulator ends with the twin, whatever ends it (SIGKILL included, which no handler in the twin sees): its
  // standard input is a pipe only the twin holds, closed by the system when the twin is gone, and the child exits at
  // its end (cognito-local-server.mjs); DynamoDbLoopback.java watches its parent process instead.
  const child = spawn(command, args, { ...options, stdio: ['pipe', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) {
    let buffered = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) options.onLine(line);
    });
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    process: child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls `probe` until it succeeds, or fails after `timeoutMs` with the last error. */
export async function waitFor(what: string, probe: () => Promise<unknown>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      await probe();
      return;
    } catch (error) {
      lastError = error;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
  throw new Error(`${what} did not start within ${timeoutMs / 1000} s: ${String(lastError)}`);
}

/** A process as /proc shows it: its parent and its start time (which tells it from a later process with its pid). */
function procStat(pid: number): { parent: number; startTime: string; zombie: boolean } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // After the command name in parentheses: state, parent pid, …; the start time is the 20th field from there.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { parent: Number(fields[1]), startTime: fields[19]!, zombie: fields[0] === 'Z' };
  } catch {
    return undefined;
  }
}

/** Whether the process was started by an npm script (npm puts npm_lifecycle_event in a script's environment). */
function startedByNpmScript(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').some((entry) => entry.startsWith('npm_lifecycle_event='));
  } catch {
    return false;
  }
}

/**
 * The processes that launched this one, up to the npm command a person typed: `npm start` runs its script through a
 * shell that execs `npm run twin`, whose script execs the twin, so the twin's parent is the inner npm and its parent
 * the outer one. Each process started by an npm script adds its parent; the chain ends at the first npm that no npm
 * script started.
 */
export function launchers(pid = process.pid): { pid: number; startTime: string }[] {
  const chain: { pid: number; startTime: string }[] = [];
  for (let current = pid; startedByNpmScript(current) || current === pid; ) {
    const parent = procStat(current)?.parent;
    const stat = parent ? procStat(parent) : undefined;
    if (!parent || parent <= 1 || !stat) break;
    chain.push({ pid: parent, startTime: stat.startTime });
    current = parent;
  }
  return chain;
}

/**
 * Calls `onGone` once when a process that launched this one has ended, however it ended (SIGKILL included, which
 * it could not pass on): a killed `npm start` leaves `npm run twin` and the twin running, reparented, holding every
 * port. Polls every `intervalMs`; without /proc (macOS) it watches only the parent, which a killed parent changes.
 */
export function onLaunchersGone(onGone: () => void, intervalMs = 250): () => void {
  const chain = launchers();
  const parent = process.ppid;
  const gone = () =>
    chain.length === 0
      ? process.ppid !== parent
      : chain.some(({ pid, startTime }) => {
          const stat = procStat(pid);
          return !stat || stat.zombie || stat.startTime !== startTime;
        });
  const timer = setInterval(() => {
    if (!gone()) return;
    clearInterval(timer);
    onGone();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
