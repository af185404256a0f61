// One execution environment of one function on the local twin, as Lambda's Node.js runtime is one in the cloud: this
// process loads the function's deployed bundle (`<bundle>/index.mjs`, built by lib/local/bundles.ts) once, then runs
// one invocation at a time as the twin sends them (lib/local/lambda-runtime.ts), over the IPC channel:
//   twin → worker  { type: 'invoke', id, event, timeoutMs, requestId }
//   worker → twin  { type: 'ready' } once the bundle is loaded, or { type: 'init-error', error } (then it exits);
//                  { type: 'output', stream, text } for what the function writes, in order with
//                  { type: 'result', id, result } or { type: 'error', id, error }.
// The twin ends the process at the function's timeout (nothing of the invocation runs on). The process ends with the
// twin, however the twin ends: at the IPC channel's close, and, should the function be stuck in a loop that never
// yields, by the kernel's parent-death signal or a watch thread that sees the twin's process gone.
// Only Node's own modules here: what the function resolves, it resolves from its bundle's folder, as in Lambda.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

const [bundle, functionName, memoryMb, endedByKernel] = process.argv.slice(2);
if (!bundle || !functionName || !process.send) {
  console.error('usage: node lambda-worker.mjs <bundle folder> <function name> <memory MB> [pdeathsig] (with an IPC channel)');
  process.exit(2);
}

process.on('disconnect', () => process.exit(0));
// Started with a parent-death signal (setpriv --pdeathsig), the kernel ends this process with the twin; otherwise a
// thread of its own does, since the main thread may be in a loop that never yields.
if (endedByKernel !== 'pdeathsig') {
  const watch = new Worker(
    `const { workerData } = require('node:worker_threads');
     setInterval(() => { if (process.ppid !== workerData) process.kill(process.pid, 'SIGKILL'); }, 500);`,
    { eval: true, workerData: process.ppid },
  );
  watch.unref();
}

const send = (message, then) => {
  if (process.connected) process.send(message, then);
};

// What the function writes goes to the twin in order with its answers (Lambda's log stream of the invocation).
for (const stream of ['stdout', 'stderr']) {
  process[stream].write = (chunk, encoding, callback) => {
    send({ type: 'output', stream, text: typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString(typeof encoding === 'string' ? encoding : 'utf8') });
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') process.nextTick(done);
    return true;
  };
}

/** An error as the Lambda runtime reports it: its type (the error's name), message and stack lines. */
const described = (error) => ({
  errorType: error instanceof Error ? error.name : 'Error',
  errorMessage: error instanceof Error ? error.message : String(error),
  trace: error instanceof Error && error.stack ? error.stack.split('\n') : [],
});

let handler;
try {
  const module = await import(pathToFileURL(join(bundle, 'index.mjs')).href);
  handler = module.handler;
  if (typeof handler !== 'function') {
    throw Object.assign(new Error(`index.handler is undefined or not exported`), { name: 'Runtime.HandlerNotFound' });
  }
} catch (error) {
  const init = described(error);
  // As Lambda's runtime: a module that cannot load is Runtime.ImportModuleError, naming what was missing.
  if (error?.code === 'ERR_MODULE_NOT_FOUND' || error?.code === 'MODULE_NOT_FOUND') init.errorType = 'Runtime.ImportModuleError';
  send({ type: 'init-error', error: init }, () => process.exit(1));
}

if (handler) {
  process.on('message', async (message) => {
    if (message?.type !== 'invoke') return;
    const deadline = Date.now() + message.timeoutMs;
    const context = {
      callbackWaitsForEmptyEventLoop: false,
      functionName,
      functionVersion: '$LATEST',
      invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
      memoryLimitInMB: memoryMb,
      awsRequestId: message.requestId ?? randomUUID(),
      logGroupName: `/aws/lambda/${functionName}`,
      logStreamName: 'local',
      getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
      done: () => undefined,
      fail: () => undefined,
      succeed: () => undefined,
    };
    try {
      const result = await handler(message.event, context);
      // Lambda returns the result as JSON (so does the IPC channel): what JSON drops, the caller never sees.
      send({ type: 'result', id: message.id, result: result === undefined ? null : result });
    } catch (error) {
      send({ type: 'error', id: message.id, error: described(error) });
    }
  });
  send({ type: 'ready' });
}
