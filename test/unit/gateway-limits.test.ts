// The twin's gateway refuses what API Gateway and Lambda refuse, with a stable code: a body over the HTTP API's 10 MB
// (without reading the rest of it), an event or a response over Lambda's 6 MB, a route that runs past its own timeout,
// and requests above the stage throttle that CDK configures.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  GATEWAY_ERROR_CODES,
  HTTP_API_PAYLOAD_BYTES,
  HTTP_API_STAGE_THROTTLE,
  LAMBDA_SYNC_PAYLOAD_BYTES,
} from '../../lambdas/contracts/aws-limits.js';
import { startGateway, type Gateway } from '../../lib/local/gateway.js';
import { FUNCTION_TIMED_OUT, FunctionError } from '../../lib/local/lambda-runtime.js';
import { freePort } from '../../lib/local/processes.js';

type Handler = (event: { body?: string }, context: { getRemainingTimeInMillis(): number }) => Promise<unknown>;
// Megabytes over loopback and a few hundred requests: seconds on a busy machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const handlers: Record<string, Handler> = {};
const calls: string[] = [];

async function gatewayWith(options: { timeScale?: number; throttle?: false } = {}): Promise<Gateway> {
  return startGateway({
    port: await freePort(),
    issuer: 'http://127.0.0.1:1/pool',
    jwksUri: 'http://127.0.0.1:1/pool/.well-known/jwks.json',
    audience: 'client',
    allowedOrigins: [],
    runtimeConfig: () => ({}) as never,
    // The function runner's part, as lib/local/lambda-runtime.ts plays it: the handler gets the timeout the gateway
    // asks for, and an invocation past it fails with Lambda's Sandbox.Timedout.
    invoke: async (name, event, invokeOptions = {}) => {
      const handler = handlers[name];
      if (!handler) throw new Error(`no handler ${name} in this test`);
      calls.push(name);
      const timeoutMs = invokeOptions.timeoutMs ?? 10_000;
      const deadline = Date.now() + timeoutMs;
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new FunctionError(FUNCTION_TIMED_OUT, `Task timed out after ${timeoutMs / 1000} seconds`)), timeoutMs);
      });
      try {
        return await Promise.race([handler(event as never, { getRemainingTimeInMillis: () => deadline - Date.now() }), timedOut]);
      } finally {
        clearTimeout(timer);
      }
    },
    log: () => undefined,
    ...options,
  });
}

interface Answer {
  status: number;
  body: { code?: string; error?: string };
}

/** Sends `size` bytes in 1 MB chunks (chunked, no content-length unless `declared`); answers as soon as the gateway does. */
function post(gateway: Gateway, path: string, size: number, declared = false): Promise<Answer> {
  return new Promise((done, fail) => {
    const req = request(`${gateway.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', ...(declared ? { 'content-length': String(size) } : {}) },
    });
    req.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        done({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString() || '{}') });
        // A client answered before its body is sent stops sending (as curl does), which closes the connection.
        if (!req.writableEnded) req.destroy();
      });
    });
    req.on('error', (error) => (req.writableEnded ? undefined : fail(error)));
    const chunk = Buffer.alloc(1024 * 1024, 1);
    let sent = 0;
    const write = () => {
      while (sent < size) {
        const part = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += part.length;
        if (req.destroyed) return;
        if (!req.write(part)) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

async function get(gateway: Gateway, path: string): Promise<Answer> {
  const response = await fetch(`${gateway.url}${path}`);
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

let gateway: Gateway;
let bytesRead = 0;

beforeAll(async () => {
  gateway = await gatewayWith({ throttle: false });
  gateway.server.on('connection', (socket) => socket.on('close', () => (bytesRead += socket.bytesRead)));
});
afterAll(() => gateway?.stop());

describe('the HTTP API payload limit (10 MB)', () => {
  it('refuses a 30 MB body with 413 REQUEST_TOO_LARGE, stops reading it and never calls the handler', async () => {
    handlers['stripe-webhook'] = async () => ({ statusCode: 200, body: '{}' });
    calls.length = 0;
    bytesRead = 0;
    const answer = await post(gateway, '/api/webhooks/stripe', 30 * 1024 * 1024);
    expect(answer).toMatchObject({ status: 413, body: { code: GATEWAY_ERROR_CODES.requestTooLarge } });
    expect(calls).toEqual([]);
    await expect.poll(() => bytesRead, { timeout: 5_000 }).toBeGreaterThan(0);
    expect(bytesRead).toBeLessThan(HTTP_API_PAYLOAD_BYTES + 4 * 1024 * 1024);
  });

  it('refuses a declared content-length over 10 MB before reading the body', async () => {
    calls.length = 0;
    const answer = await post(gateway, '/api/webhooks/stripe', 11 * 1024 * 1024, true);
    expect(answer).toMatchObject({ status: 413, body: { code: GATEWAY_ERROR_CODES.requestTooLarge } });
    expect(calls).toEqual([]);
  });
});

describe("Lambda's synchronous payload limit (6 MB)", () => {
  it('refuses a 7 MB body (under the HTTP API limit) before the handler runs: 413 PAYLOAD_TOO_LARGE', async () => {
    calls.length = 0;
    const answer = await post(gateway, '/api/webhooks/stripe', 7 * 1024 * 1024);
    expect(answer).toMatchObject({ status: 413, body: { code: GATEWAY_ERROR_CODES.payloadTooLarge } });
    expect(calls).toEqual([]);
  });

  it('counts the event as Lambda gets it: 5 MB of binary body is 6.7 MB of base64, refused', async () => {
    calls.length = 0;
    expect(Math.ceil((5 * 1024 * 1024) / 3) * 4).toBeGreaterThan(LAMBDA_SYNC_PAYLOAD_BYTES);
    const answer = await post(gateway, '/api/webhooks/stripe', 5 * 1024 * 1024);
    expect(answer).toMatchObject({ status: 413, body: { code: GATEWAY_ERROR_CODES.payloadTooLarge } });
    expect(calls).toEqual([]);
  });

  it('passes a body under it', async () => {
    calls.length = 0;
    const answer = await post(gateway, '/api/webhooks/stripe', 1024 * 1024);
    expect(answer.status).toBe(200);
    expect(calls).toEqual(['stripe-webhook']);
  });

  it('answers 500 RESPONSE_TOO_LARGE when the handler returns more than 6 MB', async () => {
    handlers['list-pricing-tiers'] = async () => ({ statusCode: 200, body: JSON.stringify({ items: 'x'.repeat(LAMBDA_SYNC_PAYLOAD_BYTES) }) });
    const answer = await get(gateway, '/api/pricing-tiers');
    expect(answer).toMatchObject({ status: 500, body: { code: GATEWAY_ERROR_CODES.responseTooLarge } });
  });
});

describe("each route's own timeout", () => {
  it("gives the handler its route's timeout (15 s for the Stripe webhook, the default 10 s for pricing tiers), not 30 s", async () => {
    const remaining: Record<string, number> = {};
    handlers['stripe-webhook'] = async (_event, context) => {
      remaining.stripe = context.getRemainingTimeInMillis();
      return { statusCode: 200, body: '{}' };
    };
    handlers['list-pricing-tiers'] = async (_event, context) => {
      remaining.tiers = context.getRemainingTimeInMillis();
      return { statusCode: 200, body: '{}' };
    };
    await post(gateway, '/api/webhooks/stripe', 10);
    await get(gateway, '/api/pricing-tiers');
    expect(remaining.stripe).toBeGreaterThan(10_000);
    expect(remaining.stripe).toBeLessThanOrEqual(15_000);
    expect(remaining.tiers).toBeLessThanOrEqual(10_000);
  });

  it('cuts a handler that runs past it with 500 FUNCTION_TIMEOUT', async () => {
    const scaled = await gatewayWith({ timeScale: 0.01, throttle: false });
    try {
      handlers['stripe-webhook'] = () => new Promise(() => undefined);
      const answer = await post(scaled, '/api/webhooks/stripe', 10);
      expect(answer).toMatchObject({ status: 500, body: { code: GATEWAY_ERROR_CODES.functionTimeout } });
    } finally {
      await scaled.stop();
    }
  });
});

describe('the stage throttle (the CDK stage configuration)', () => {
  it(`answers 429 past the burst of ${HTTP_API_STAGE_THROTTLE.burstLimit}, with the cloud's own body and no code`, async () => {
    // The stage's own numbers, its refill slowed a thousandfold so that the burst is what this test sees.
    const throttled = await gatewayWith({ timeScale: 1000 });
    try {
      handlers['list-pricing-tiers'] = async () => ({ statusCode: 200, body: '{}' });
      const answers = await Promise.all(Array.from({ length: HTTP_API_STAGE_THROTTLE.burstLimit + 50 }, () => get(throttled, '/api/pricing-tiers')));
      const refused = answers.filter((answer) => answer.status === 429);
      expect(answers.filter((answer) => answer.status === 200).length).toBe(HTTP_API_STAGE_THROTTLE.burstLimit);
      expect(refused.length).toBe(50);
      // HTTP API's own 429 body: a `/v1` client sees on the twin exactly what production sends it.
      for (const answer of refused) expect(answer.body).toEqual({ message: 'Too Many Requests' });
    } finally {
      await throttled.stop();
    }
  });
});
