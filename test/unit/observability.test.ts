// What an operator reads in CloudWatch: every log line of a request or a workflow task is one JSON object carrying the
// request id, the route or task, the caller as a hash and the record's id, and never the caller's e-mail or token;
// metrics are EMF lines in the ModelLoop namespace that the alarms find by name and service.
import type { APIGatewayProxyEventV2WithJWTAuthorizer, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';

const EMAIL = 'ada.lovelace@example.com';
const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyLTQyIn0.c2lnbmF0dXJl';
const USER_ID = '3f1c2a9e-0000-4000-8000-000000000042';
const GENERATION_ID = '0b7e6c1d-1111-4111-8111-111111111111';

const lines: string[] = [];
const saved = { LOG_LEVEL: process.env.LOG_LEVEL, POWERTOOLS_DEV: process.env.POWERTOOLS_DEV, DISABLED: process.env.POWERTOOLS_METRICS_DISABLED };

beforeAll(() => {
  // Info lines on, and the cloud's format (one JSON object per line), as in a deployed function.
  process.env.LOG_LEVEL = 'INFO';
  delete process.env.POWERTOOLS_DEV;
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  const capture = (chunk: unknown) => {
    lines.push(...String(chunk).split('\n').filter((line) => line.trim()));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) vi.spyOn(console, method).mockImplementation((...args) => void capture(args.join(' ')));
});
afterAll(() => {
  vi.restoreAllMocks();
  for (const [key, value] of [['LOG_LEVEL', saved.LOG_LEVEL], ['POWERTOOLS_DEV', saved.POWERTOOLS_DEV], ['POWERTOOLS_METRICS_DISABLED', saved.DISABLED]] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});
beforeEach(() => void lines.splice(0));

function signedInEvent(): APIGatewayProxyEventV2WithJWTAuthorizer {
  return {
    version: '2.0',
    routeKey: 'POST /generate-ai-image',
    rawPath: '/generate-ai-image',
    rawQueryString: `token=${TOKEN}`,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    queryStringParameters: { token: TOKEN },
    body: JSON.stringify({ email: EMAIL }),
    isBase64Encoded: false,
    requestContext: {
      requestId: 'req-observability-1',
      http: { method: 'POST', path: '/generate-ai-image' },
      authorizer: { jwt: { claims: { sub: USER_ID, token_use: 'id', email: EMAIL, auth_time: 1_700_000_000 }, scopes: [] } },
    },
  } as unknown as APIGatewayProxyEventV2WithJWTAuthorizer;
}

const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);

describe('log lines of a request', () => {
  it('are JSON with the request id, route, hashed user and record id, and never the e-mail or the token', async () => {
    const { installCallerGate, route } = await import('../../lambdas/core/http.js');
    const { defineRoute } = await import('../../lambdas/contracts/route.js');
    installCallerGate(async () => undefined);
    const { appendLogKeys, log, userHash } = await import('../../lambdas/core/log.js');
    const handler = route(defineRoute({ method: 'GET', path: '/whoami', auth: 'user', summary: 'A probe' }), async () => {
      appendLogKeys({ generationId: GENERATION_ID });
      log.info('generation started', { cost: 2 });
      throw new Error('provider exploded');
    });
    const result = (await handler(signedInEvent())) as APIGatewayProxyStructuredResultV2;
    expect(result.statusCode).toBe(500);

    const entries = parsed();
    expect(entries.map((entry) => entry.message)).toEqual(['generation started', 'unhandled error']);
    for (const entry of entries) {
      expect(entry).toMatchObject({
        service: 'modelloop',
        requestId: 'req-observability-1',
        route: 'POST /generate-ai-image',
        userHash: userHash(USER_ID),
        generationId: GENERATION_ID,
      });
      expect(entry.userHash).toMatch(/^[0-9a-f]{16}$/);
    }
    expect(entries[0]).toMatchObject({ level: 'INFO', cost: 2 });
    expect(entries[1]).toMatchObject({ level: 'ERROR', error: { name: 'Error' } });
    const text = lines.join('\n');
    expect(text).not.toContain(EMAIL);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(USER_ID);
  });

  it('keep concurrent requests apart', async () => {
    const { installCallerGate, route } = await import('../../lambdas/core/http.js');
    const { defineRoute } = await import('../../lambdas/contracts/route.js');
    installCallerGate(async () => undefined);
    const { log, userHash } = await import('../../lambdas/core/log.js');
    const handler = route(defineRoute({ method: 'GET', path: '/whoami', auth: 'user', summary: 'A probe' }), async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      log.info('done');
      return {};
    });
    const other = signedInEvent();
    other.requestContext.requestId = 'req-observability-2';
    other.requestContext.authorizer.jwt.claims.sub = 'another-user';
    await Promise.all([handler(signedInEvent()), handler(other)]);
    const byRequest = Object.fromEntries(parsed().map((entry) => [entry.requestId, entry.userHash]));
    expect(byRequest).toEqual({ 'req-observability-1': userHash(USER_ID), 'req-observability-2': userHash('another-user') });
  });
});

describe('log lines of a workflow task', () => {
  it('carry the task, the Lambda request id, the hashed user and the generation id from the input', async () => {
    const { workflowTask } = await import('../../lambdas/core/task.js');
    const { log, userHash } = await import('../../lambdas/core/log.js');
    const { GenerationTaskInput } = await import('../../lambdas/contracts/workflows.js');
    const handler = workflowTask('Process', GenerationTaskInput, async (input) => {
      log.warn('provider slow', { ms: 1234 });
      return input.generationId;
    });
    expect(await handler({ userId: USER_ID, generationId: GENERATION_ID }, { awsRequestId: 'lambda-req-9' })).toBe(GENERATION_ID);
    expect(parsed()).toEqual([
      expect.objectContaining({ level: 'WARN', message: 'provider slow', task: 'Process', requestId: 'lambda-req-9', userHash: userHash(USER_ID), generationId: GENERATION_ID }),
    ]);
    expect(lines.join('\n')).not.toContain(USER_ID);
  });

  it('never run on an input their schema refuses: TaskInputError, for the Catch to take like any failure', async () => {
    const { workflowTask } = await import('../../lambdas/core/task.js');
    const { GenerationTaskInput } = await import('../../lambdas/contracts/workflows.js');
    let ran = false;
    const handler = workflowTask('Process', GenerationTaskInput, async () => {
      ran = true;
    });
    await expect(handler({ userId: USER_ID })).rejects.toMatchObject({ name: 'TaskInputError', message: expect.stringContaining('generationId') });
    expect(ran).toBe(false);
  });
});

describe('metrics', () => {
  it('are EMF lines in the ModelLoop namespace with the service and the dimensions given', async () => {
    const { emitMetrics, METRICS_NAMESPACE } = await import('../../lambdas/core/metrics.js');
    emitMetrics({ GenerationsStarted: 1, CreditsSpent: 4 }, { type: 'generate-video' });
    const emf = parsed().filter((entry) => entry._aws);
    expect(emf.length).toBeGreaterThan(0);
    const figures = Object.assign({}, ...emf) as Record<string, unknown>;
    expect(figures).toMatchObject({ GenerationsStarted: 1, CreditsSpent: 4, type: 'generate-video', service: 'modelloop' });
    for (const entry of emf) {
      const directive = (entry._aws as { CloudWatchMetrics: { Namespace: string; Dimensions: string[][] }[] }).CloudWatchMetrics[0]!;
      expect(directive.Namespace).toBe(METRICS_NAMESPACE);
      expect(directive.Dimensions).toEqual([['service', 'type']]);
    }
  });
});
