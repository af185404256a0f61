// The S3 client, created once per container. Locally the twin sets AWS_ENDPOINT_URL_S3 and S3_FORCE_PATH_STYLE.
import { S3Client } from '@aws-sdk/client-s3';

export function createS3Client(env: NodeJS.ProcessEnv = process.env): S3Client {
  return new S3Client({
    forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true',
    // s3rver stores streamed bodies with their chunk framing otherwise; harmless on AWS.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

// Marked pure so that a bundle whose code never sends an S3 request (a function that only presigns, through
// storage/presign.ts) drops the client even when a module it imports also offers object reads and writes.
export const s3 = /* @__PURE__ */ createS3Client();
