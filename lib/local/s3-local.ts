// s3rver: the S3 API on the local filesystem. Buckets are created from the same definitions CDK deploys,
// with CORS for the web origin so the browser can upload straight to a presigned URL, as it does in the cloud.
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import S3rver from 's3rver';
import { BUCKETS, type BucketName } from '../../lambdas/data/tables.js';
import { CORS } from '../../lambdas/routes.js';

/** s3rver accepts any signature but only its own access key id, so the whole twin uses it. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

export interface S3Local {
  endpoint: string;
  buckets: Record<BucketName, string>;
  stop(): Promise<void>;
}

export async function startS3Local(options: { port: number; dataDir: string; prefix: string; webOrigins: string[] }): Promise<S3Local> {
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

const escapeXml = (text: string) => text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);

function corsXml(origins: string[]): string {
  const rules = origins
    .map(
      (origin) => `<CORSRule><AllowedOrigin>${origin}</AllowedOrigin>${['GET', 'PUT', 'HEAD'].map((m) => `<AllowedMethod>${m}</AllowedMethod>`).join('')}<AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>${CORS.maxAgeSeconds}</MaxAgeSeconds></CORSRule>`,
    )
    .join('');
  return `<CORSConfiguration>${rules}</CORSConfiguration>`;
}
