// Whether a Luma Ray2 clip is ready (Amazon Bedrock GetAsyncInvoke), and where its MP4 is. This half of the video
// adapter needs no image code, so the workflow's CheckClip task loads it alone (../video-status.ts); starting a clip
// (luma-video.ts) sizes the keyframe with sharp.
//
// GetAsyncInvoke (API reference, https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_GetAsyncInvoke.html)
// answers status "InProgress" | "Completed" | "Failed", failureMessage, and outputDataConfig.s3OutputDataConfig.s3Uri.
// Where the MP4 lands: Bedrock makes a folder per invocation id under the requested s3Uri holding `output.mp4`
// ("Video generation access and usage - Amazon Nova", https://docs.aws.amazon.com/nova/latest/userguide/video-gen-access.html;
// AWS SDK code example "Generate a video with Amazon Nova Reel" reads `<outputDataConfig s3Uri>/output.mp4`). The Luma
// page only says "The MP4 file will be stored in the Amazon S3 bucket", so when it can list keys, `check` confirms
// the key by listing the invocation's folder and takes the MP4 it finds there.
import { GetAsyncInvokeCommand, type BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import type { S3Location, VideoStatus } from '../ports.js';
import { callAws, errorForAsyncFailure } from './errors.js';

export const LUMA_OUTPUT_FILE = 'output.mp4';

/** The keys under a prefix of a bucket (lambdas/storage/object-list.ts). */
export type ListKeys = (bucket: string, prefix: string) => Promise<string[]>;

export interface LumaStatusOptions {
  client: BedrockRuntimeClient;
  /** Confirms where the MP4 landed (needs s3:ListBucket on the output bucket). */
  listKeys?: ListKeys;
}

function parseS3Uri(uri: string): S3Location | null {
  const match = /^s3:\/\/([^/]+)\/?(.*)$/.exec(uri);
  return match?.[1] ? { bucket: match[1], key: match[2]!.replace(/\/+$/, '') } : null;
}

/** The folder Bedrock wrote this invocation into: `<requested prefix>/<invocation id>`. */
export function invocationFolder(invocationArn: string, reportedS3Uri: string): S3Location | null {
  const reported = parseS3Uri(reportedS3Uri);
  const invocationId = invocationArn.split('/').pop();
  if (!reported || !invocationId) return null;
  const alreadyInFolder = reported.key.split('/').pop() === invocationId;
  const key = alreadyInFolder ? reported.key : [reported.key, invocationId].filter(Boolean).join('/');
  return { bucket: reported.bucket, key };
}

/** The state of the clip a Luma invocation (its ARN is the operation name) renders. */
export function createLumaStatus(options: LumaStatusOptions): { check(operationName: string): Promise<VideoStatus> } {
  async function findMp4(folder: S3Location): Promise<string | null> {
    if (!options.listKeys) return `${folder.key}/${LUMA_OUTPUT_FILE}`;
    const listed = await callAws(() => options.listKeys!(folder.bucket, `${folder.key}/`));
    const keys = listed.filter((key) => key.toLowerCase().endsWith('.mp4'));
    return keys.find((key) => key.endsWith(`/${LUMA_OUTPUT_FILE}`)) ?? keys[0] ?? null;
  }

  return {
    async check(operationName): Promise<VideoStatus> {
      const invocation = await callAws(() => options.client.send(new GetAsyncInvokeCommand({ invocationArn: operationName })));
      if (invocation.status === 'Failed') return { state: 'failed', error: errorForAsyncFailure(invocation.failureMessage) };
      if (invocation.status !== 'Completed') return { state: 'running' };
      const folder = invocation.outputDataConfig?.s3OutputDataConfig?.s3Uri
        ? invocationFolder(operationName, invocation.outputDataConfig.s3OutputDataConfig.s3Uri)
        : null;
      if (!folder) return { state: 'failed', error: errorForAsyncFailure(null) };
      const key = await findMp4(folder);
      // Completed but the object is not listed yet: S3 will show it on a later check.
      return key ? { state: 'completed', output: { bucket: folder.bucket, key } } : { state: 'running' };
    },
  };
}
