// s3rver: the S3 API on the local filesystem. Buckets are created from the same definitions CDK deploys,
// with CORS for the web origin so the browser can upload straight to a presigned URL, as it does in the cloud.
import { mkdirSync } from 'node:fs';
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
  await server.run();
  const httpServer = (server as unknown as { httpServer: Server }).httpServer;
  return {
    endpoint: `http://127.0.0.1:${options.port}`,
    buckets,
    stop: () => new Promise<void>((resolve) => httpServer.close(() => resolve())),
  };
}

function corsXml(origins: string[]): string {
  const rules = origins
    .map(
      (origin) => `<CORSRule><AllowedOrigin>${origin}</AllowedOrigin>${['GET', 'PUT', 'HEAD'].map((m) => `<AllowedMethod>${m}</AllowedMethod>`).join('')}<AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>${CORS.maxAgeSeconds}</MaxAgeSeconds></CORSRule>`,
    )
    .join('');
  return `<CORSConfiguration>${rules}</CORSConfiguration>`;
}
