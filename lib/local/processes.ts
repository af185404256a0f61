// Child processes of the local twin and waiting for servers to come up.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { createServer } from 'node:net';

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Fails with a clear message when a fixed port is already taken. */
export function assertPortFree(port: number, what: string, envName: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', () =>
      reject(new Error(`Port ${port} for ${what} is already in use. Stop what uses it, or set ${envName} to another port.`)),
    );
    server.listen(port, '127.0.0.1', () => server.close(() => resolve()));
  });
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
