// s3rver: the S3 API on the local filesystem. Buckets are created from the same definitions CDK deploys,
// with CORS for the web origin so the browser can upload straight to a presigned URL, as it does in the cloud.
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import S3rver from 's3rver';
import { BUCKETS, type BucketName } from '../../lambdas/data/tables.js';
import { CORS } from '../../lambdas/routes.js';
import { s3Refusal, type TwinAccess } from './grants.js';
import { ROLE_SESSION_TOKEN_LENGTH, sessionTokenOfLength } from './session-tokens.js';
import { checkSignature, S3Refusal, type TwinCredentials } from './s3-signatures.js';

/**
 * A Lambda function's credentials are a role session's: an ASIA… key id, a secret and a session token of about
 * 1,000–1,200 characters (AWS_SESSION_TOKEN), which every presigned URL carries as X-Amz-Security-Token. The twin's
 * are shaped the same, so its URLs are as long as the cloud's (and what carries them, such as a workflow's state,
 * meets the same limits); its S3 accepts these and no others.
 */
export const LOCAL_SESSION_TOKEN_LENGTH = ROLE_SESSION_TOKEN_LENGTH;
export const LOCAL_CREDENTIALS: TwinCredentials = {
  accessKeyId: 'ASIATWINLOCAL0000001',
  secretAccessKey: 'modelloop/twin/LocalSecretAccessKey00000',
  sessionToken: sessionTokenOfLength(LOCAL_SESSION_TOKEN_LENGTH),
};


export interface S3Local {
  endpoint: string;
  buckets: Record<BucketName, string>;
  stop(): Promise<void>;
}

export async function startS3Local(options: { port: number; dataDir: string; prefix: string; webOrigins: string[]; region: string; access: TwinAccess }): Promise<S3Local> {
  mkdirSync(options.dataDir, { recursive: true });
  const buckets = Object.fromEntries(
    (Object.keys(BUCKETS) as BucketName[]).map((bucket) => [bucket, `${options.prefix}-${BUCKETS[bucket].logicalName}`]),
  ) as Record<BucketName, string>;
  const cors = Buffer.from(corsXml(options.webOrigins));
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port,
    directory: options.dataDir,
    silent: true,
    allowMismatchedSignatures: true,
    configureBuckets: Object.values(buckets).map((name) => ({ name, configs: [cors] })),
  });
  storeTagsOfPuts(server);
  options.access.resources.buckets = buckets;
  checkRequests(server, options.region, options.webOrigins, options.access);
  await server.run();
  const httpServer = (server as unknown as { httpServer: Server }).httpServer;
  return {
    endpoint: `http://127.0.0.1:${options.port}`,
    buckets,
    stop: () => new Promise<void>((resolve) => httpServer.close(() => resolve())),
  };
}

interface S3rverContext {
  method: string;
  status: number;
  params?: { bucket?: string; key?: string; queryMethod?: string };
  get(header: string): string;
  store: {
    putSubresource(bucket: string, key: string, resource: unknown): Promise<void>;
    deleteSubresource(bucket: string, key: string, type: string): Promise<void>;
  };
}

/**
 * S3 stores the tags a PUT carries in `x-amz-tagging` (uploads are created tagged `upload=pending`, which the
 * abandoned-uploads lifecycle rule matches); s3rver ignores that header and keeps only tags set by PutObjectTagging.
 * This middleware, first in s3rver's Koa stack, stores them as S3 does, so GetObjectTagging answers the same on the
 * twin and the twin's upload sweep (lib/local/upload-sweep.ts) sees what the lifecycle rule sees.
 */
function storeTagsOfPuts(server: S3rver): void {
  const { TaggingConfiguration } = createRequire(import.meta.url)('s3rver/lib/models/config.js') as {
    TaggingConfiguration: { validate(xml: string): unknown };
  };
  const middleware = (server as unknown as { middleware: ((ctx: S3rverContext, next: () => Promise<void>) => Promise<void>)[] }).middleware;
  middleware.unshift(async (ctx, next) => {
    await next();
    const { bucket, key, queryMethod } = ctx.params ?? {};
    // A plain object PUT or DELETE that succeeded (not a subresource such as ?tagging or ?uploadId).
    const objectRequest = bucket && key && !queryMethod && ctx.status < 300;
    if (!objectRequest) return;
    if (ctx.method === 'PUT' && !ctx.get('x-amz-copy-source')) {
      const tagging = ctx.get('x-amz-tagging');
      if (!tagging) return ctx.store.deleteSubresource(bucket, key, 'tagging');
      const tags = [...new URLSearchParams(tagging)]
        .map(([name, value]) => `<Tag><Key>${escapeXml(name)}</Key><Value>${escapeXml(value)}</Value></Tag>`)
        .join('');
      await ctx.store.putSubresource(bucket, key, TaggingConfiguration.validate(`<Tagging><TagSet>${tags}</TagSet></Tagging>`));
    } else if (ctx.method === 'DELETE') {
      await ctx.store.deleteSubresource(bucket, key, 'tagging');
    }
  });
}

/**
 * The checks S3 makes and s3rver does not (lib/local/s3-signatures.ts), first in s3rver's Koa stack: every request
 * but a CORS preflight is signed with credentials of the twin (its own or a function's), within its expiry, with every
 * signed condition met, and asks only what the signer is granted (lib/local/grants.ts: a function's presigned URL is
 * held to that function's grants, as its SDK calls are);
 * a PUT with `If-None-Match: *` creates its key once (412 PreconditionFailed when it exists, one such PUT per key at a
 * time, as S3 makes concurrent conditional writes of one key conflict). A refusal is S3's XML error, with the CORS
 * headers S3 gives an allowed origin so the browser can read it.
 */
function checkRequests(server: S3rver, region: string, webOrigins: string[], access: TwinAccess): void {
  const { DUMMY_ACCOUNT } = createRequire(import.meta.url)('s3rver/lib/models/account.js') as {
    DUMMY_ACCOUNT: { createKeyPair(accessKeyId: string, secretAccessKey: string): void };
  };
  // s3rver's own check (which verifies no SigV4) then knows the twin's key ids; this layer has verified the signature.
  for (const { accessKeyId, secretAccessKey } of access.allCredentials()) DUMMY_ACCOUNT.createKeyPair(accessKeyId, secretAccessKey);
  const writing = new Map<string, Promise<void>>();
  const middleware = (server as unknown as { middleware: ((ctx: CheckedContext, next: () => Promise<void>) => Promise<void>)[] }).middleware;
  middleware.unshift(async (ctx, next) => {
    try {
      const request = { method: ctx.method, url: ctx.originalUrl, headers: ctx.headers };
      const signedBy = await checkSignature(request, access.credentialsOf, region);
      const principal = signedBy === undefined ? undefined : access.principal(signedBy);
      const denied = principal && s3Refusal(principal, request, access.resources);
      if (denied) throw new S3Refusal(403, 'AccessDenied', denied.message);
      const [path = '', query] = ctx.originalUrl.split('?', 2);
      const [bucket, ...keyParts] = path.slice(1).split('/').map(decodeURIComponent);
      const key = keyParts.join('/');
      const condition = ctx.get('if-none-match');
      if (ctx.method !== 'PUT' || !bucket || !key || !condition || /(^|&)(uploadId|partNumber|tagging|acl)=/.test(query ?? '')) return await next();
      // Not a gap of the twin: S3's PutObject takes only `*` here ("If-None-Match … Expects the '*' (asterisk)
      // character", Amazon S3 API reference, PutObject, read 2026-11) and answers any other value 501 NotImplemented.
      if (condition !== '*') throw new S3Refusal(501, 'NotImplemented', 'A header you provided implies functionality that is not implemented: If-None-Match other than *');
      const slot = `${bucket}/${key}`;
      while (writing.has(slot)) await writing.get(slot);
      let resolve!: () => void;
      writing.set(slot, new Promise<void>((done) => (resolve = done)));
      try {
        if (await ctx.store.existsObject(bucket, key)) throw new S3Refusal(412, 'PreconditionFailed', 'At least one of the pre-conditions you specified did not hold');
        await next();
      } finally {
        writing.delete(slot);
        resolve();
      }
    } catch (error) {
      if (!(error instanceof S3Refusal)) throw error;
      const origin = ctx.get('origin');
      if (origin && webOrigins.includes(origin)) ctx.set('Access-Control-Allow-Origin', origin);
      ctx.set('x-amz-error-code', error.code);
      ctx.status = error.status;
      ctx.type = 'application/xml';
      ctx.body = error.toXml();
    }
  });
}

interface CheckedContext {
  method: string;
  originalUrl: string;
  headers: Record<string, string | string[] | undefined>;
  status: number;
  type: string;
  body: unknown;
  get(header: string): string;
  set(header: string, value: string): void;
  store: { existsObject(bucket: string, key: string): Promise<boolean> };
}

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);

function corsXml(origins: string[]): string {
  const rules = origins
    .map(
      (origin) => `<CORSRule><AllowedOrigin>${origin}</AllowedOrigin>${['GET', 'PUT', 'HEAD'].map((m) => `<AllowedMethod>${m}</AllowedMethod>`).join('')}<AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>${CORS.maxAgeSeconds}</MaxAgeSeconds></CORSRule>`,
    )
    .join('');
  return `<CORSConfiguration>${rules}</CORSConfiguration>`;
}
