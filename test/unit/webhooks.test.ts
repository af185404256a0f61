// Outgoing webhooks without a twin: our signature is the Standard Webhooks one (the specification's test vector, and
// the standardwebhooks library verifies what we send), the address rules of the cloud and of the twin, a POST under
// the fetch guard never follows a redirect, which stream changes are events, and the retry schedule's configuration.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LookupAddress } from 'node:dns';
import type { DynamoDBRecord } from 'aws-lambda';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventIdOf, terminalChangeOf } from '../../lambdas/domain/webhooks/events.js';
import { checkWebhookUrl } from '../../lambdas/domain/webhooks/address.js';
import {
  DEFAULT_RETRY_DELAYS,
  localTargetsAllowed,
  newSigningSecret,
  retryDelays,
  signedHeaders,
  WEBHOOKS_ALLOW_LOCAL_ENV,
} from '../../lambdas/domain/webhooks/rules.js';
import { safeFetch } from '../../lambdas/net/safe-fetch.js';

// The test vector of the Standard Webhooks specification.
const VECTOR = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  payload: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

describe('signing', () => {
  it('matches the Standard Webhooks test vector', () => {
    const headers = signedHeaders(VECTOR.secret, VECTOR.id, new Date(VECTOR.timestamp * 1000), VECTOR.payload);
    expect(headers).toEqual({ 'webhook-id': VECTOR.id, 'webhook-timestamp': String(VECTOR.timestamp), 'webhook-signature': VECTOR.signature });
  });

  it('a new secret is whsec_ + base64 of 24 random bytes, different each time, and what we sign with it verifies', () => {
    const secret = newSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
    expect(newSigningSecret()).not.toBe(secret);
    const payload = JSON.stringify({ id: 'evt_1', type: 'generation.completed', timestamp: new Date().toISOString(), data: { id: 'g1' } });
    const headers = signedHeaders(secret, 'evt_1', new Date(), payload);
    expect(new Webhook(secret).verify(payload, headers)).toEqual(JSON.parse(payload));
    expect(() => new Webhook(secret).verify(payload.replace('g1', 'g2'), headers)).toThrow();
    expect(() => new Webhook(newSigningSecret()).verify(payload, headers)).toThrow();
  });
});

const resolverTo = (...addresses: string[]) => async (): Promise<LookupAddress[]> =>
  addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
const PUBLIC = resolverTo('93.184.215.14');

describe('endpoint address rules', () => {
  const cloud = (url: string, resolve = PUBLIC) => checkWebhookUrl(url, { local: false, resolve });
  const twin = (url: string, resolve = PUBLIC) => checkWebhookUrl(url, { local: true, resolve });

  it('the cloud takes a public https address on port 443 only', async () => {
    await expect(cloud('https://hooks.shop.example/modelloop')).resolves.toMatchObject({ href: 'https://hooks.shop.example/modelloop' });
    await expect(cloud('http://hooks.shop.example/modelloop')).rejects.toMatchObject({ status: 400, code: 'WEBHOOK_URL_NOT_HTTPS' });
    await expect(cloud('https://hooks.shop.example:8443/x')).rejects.toMatchObject({ code: 'WEBHOOK_URL_NOT_ALLOWED' });
    await expect(cloud('https://user:pw@hooks.shop.example/x')).rejects.toMatchObject({ code: 'WEBHOOK_URL_INVALID' });
    await expect(cloud('not a url')).rejects.toMatchObject({ code: 'WEBHOOK_URL_INVALID' });
    await expect(cloud('ftp://hooks.shop.example/x')).rejects.toMatchObject({ code: 'WEBHOOK_URL_NOT_HTTPS' });
    await expect(cloud('https://nowhere.example/x', async () => [])).rejects.toMatchObject({ code: 'WEBHOOK_URL_UNRESOLVABLE' });
  });

  it.each(['127.0.0.1', '10.1.2.3', '172.16.0.9', '192.168.0.10', '169.254.169.254', '100.64.0.1', '::1', 'fd00::1', 'fe80::1', '::ffff:10.0.0.1'])(
    'the cloud refuses a host resolving to %s, and one literal',
    async (address) => {
      await expect(cloud('https://hooks.shop.example/x', resolverTo(address))).rejects.toMatchObject({ code: 'WEBHOOK_URL_NOT_ALLOWED' });
      await expect(cloud('https://hooks.shop.example/x', resolverTo('93.184.215.14', address))).rejects.toMatchObject({ code: 'WEBHOOK_URL_NOT_ALLOWED' });
      const literal = address.includes(':') ? `[${address}]` : address;
      await expect(cloud(`https://${literal}/x`)).rejects.toMatchObject({ code: 'WEBHOOK_URL_NOT_ALLOWED' });
    },
  );

  it('the twin also takes http and loopback on any port, and still refuses private and metadata addresses', async () => {
    await expect(twin('http://localhost:4000/hooks', resolverTo('127.0.0.1'))).resolves.toBeInstanceOf(URL);
    await expect(twin('http://127.0.0.1:4000/hooks')).resolves.toBeInstanceOf(URL);
    await expect(twin('http://[::1]:4000/hooks')).resolves.toBeInstanceOf(URL);
    await expect(twin('http://169.254.169.254/latest/meta-data')).rejects.toMatchObject({ code: 'WEBHOOK_URL_NOT_ALLOWED' });
    await expect(twin('http://10.0.0.8:4000/hooks')).rejects.toMatchObject({ code: 'WEBHOOK_URL_NOT_ALLOWED' });
  });

  it('only the twin flag allows local targets, and never inside a Lambda runtime', () => {
    expect(localTargetsAllowed({})).toBe(false);
    expect(localTargetsAllowed({ [WEBHOOKS_ALLOW_LOCAL_ENV]: '1' })).toBe(true);
    expect(localTargetsAllowed({ [WEBHOOKS_ALLOW_LOCAL_ENV]: 'true' })).toBe(false);
    expect(localTargetsAllowed({ [WEBHOOKS_ALLOW_LOCAL_ENV]: '1', AWS_LAMBDA_RUNTIME_API: '127.0.0.1:9001' })).toBe(false);
  });
});

describe('a delivery POST under the fetch guard', () => {
  let server: Server;
  let port: number;
  const seen: { method?: string; url?: string; body: string }[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, body });
        if (req.url === '/moved') res.writeHead(307, { location: '/elsewhere' }).end();
        else res.writeHead(204).end();
      });
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it('sends the body and is answered; a redirect is an answer of its own, never followed', async () => {
    const options = { method: 'POST' as const, body: '{"a":1}', maxBytes: 1024, followRedirects: false, allowLoopback: true };
    await expect(safeFetch(`http://127.0.0.1:${port}/hook`, options)).resolves.toMatchObject({ status: 204 });
    await expect(safeFetch(`http://127.0.0.1:${port}/moved`, options)).rejects.toMatchObject({ reason: 'HTTP_ERROR', details: { status: 307 } });
    expect(seen).toEqual([
      { method: 'POST', url: '/hook', body: '{"a":1}' },
      { method: 'POST', url: '/moved', body: '{"a":1}' },
    ]);
  });

  it('without the local allowance the loopback receiver is refused before any request', async () => {
    const before = seen.length;
    await expect(safeFetch(`http://127.0.0.1:${port}/hook`, { method: 'POST', body: '{}', maxBytes: 1024, followRedirects: false })).rejects.toMatchObject({
      reason: 'ADDRESS_NOT_ALLOWED',
    });
    expect(seen).toHaveLength(before);
  });
});

const image = (fields: Record<string, string>) => Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, { S: value }]));
const change = (eventName: 'INSERT' | 'MODIFY', before: Record<string, string> | undefined, after: Record<string, string>): DynamoDBRecord => ({
  eventName,
  dynamodb: { OldImage: before && image(before), NewImage: image(after), SequenceNumber: '1' },
});

describe('which stream changes are webhook events', () => {
  const base = { user_id: 'u1', id: 'g1', generation_type: 'image' };
  it('a record moving from running to an end state, once', () => {
    expect(terminalChangeOf('generations', change('MODIFY', { ...base, status: 'processing' }, { ...base, status: 'complete' }))).toEqual({
      table: 'generations',
      userId: 'u1',
      resourceId: 'g1',
      type: 'generation.completed',
    });
    expect(terminalChangeOf('generations', change('MODIFY', { ...base, status: 'processing' }, { ...base, status: 'failed' }))?.type).toBe('generation.failed');
    expect(terminalChangeOf('jobs', change('MODIFY', { ...base, status: 'generating' }, { ...base, status: 'complete' }))?.type).toBe('video.completed');
    expect(terminalChangeOf('jobs', change('MODIFY', { ...base, status: 'generating' }, { ...base, status: 'failed' }))?.type).toBe('video.failed');
    expect(terminalChangeOf('batches', change('MODIFY', { ...base, status: 'processing' }, { ...base, status: 'complete' }))?.type).toBe('batch.completed');
  });

  it('no event for a new record, a change after the end, a batch photo, a video history row or another table', () => {
    expect(terminalChangeOf('generations', change('INSERT', undefined, { ...base, status: 'complete' }))).toBeUndefined();
    expect(terminalChangeOf('generations', change('MODIFY', { ...base, status: 'complete' }, { ...base, status: 'complete' }))).toBeUndefined();
    expect(terminalChangeOf('generations', change('MODIFY', { ...base, status: 'processing' }, { ...base, status: 'processing' }))).toBeUndefined();
    const photo = { ...base, generation_type: 'batch' };
    expect(terminalChangeOf('generations', change('MODIFY', { ...photo, status: 'processing' }, { ...photo, status: 'complete' }))).toBeUndefined();
    const video = { ...base, generation_type: 'video' };
    expect(terminalChangeOf('generations', change('MODIFY', { ...video, status: 'processing' }, { ...video, status: 'failed' }))).toBeUndefined();
    expect(terminalChangeOf('clothingItems', change('MODIFY', { ...base, status: 'processing' }, { ...base, status: 'complete' }))).toBeUndefined();
  });

  it('the event id is derived from the change, so a retried stream batch starts the same deliveries', () => {
    const completed = { table: 'generations', userId: 'u1', resourceId: 'g1', type: 'generation.completed' } as const;
    expect(eventIdOf(completed)).toMatch(/^evt_[0-9a-f]{24}$/);
    expect(eventIdOf(completed)).toBe(eventIdOf({ ...completed }));
    expect(eventIdOf(completed)).not.toBe(eventIdOf({ ...completed, resourceId: 'g2' }));
    expect(eventIdOf(completed)).not.toBe(eventIdOf({ ...completed, type: 'generation.failed' }));
  });
});

describe('the retry schedule', () => {
  it('defaults to 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h and is configurable', () => {
    expect(retryDelays({})).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(retryDelays({})).toEqual([...DEFAULT_RETRY_DELAYS]);
    expect(retryDelays({ WEBHOOK_RETRY_DELAYS: '1, 2,3' })).toEqual([1, 2, 3]);
    expect(() => retryDelays({ WEBHOOK_RETRY_DELAYS: '1,x' })).toThrow(/WEBHOOK_RETRY_DELAYS/);
  });
});
