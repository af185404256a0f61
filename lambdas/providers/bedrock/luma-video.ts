// VideoPort on Luma Ray2 (Amazon Bedrock StartAsyncInvoke / GetAsyncInvoke).
// Request shape: see luma-request.ts ("Luma AI models - Amazon Bedrock",
// https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-luma.html); checking a clip and finding its
// MP4: luma-status.ts.
import { StartAsyncInvokeCommand, type BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { ProviderError, type VideoPort, type VideoStartRequest } from '../ports.js';
import { callAws, errorForAsyncFailure } from './errors.js';
import {
  LUMA_RAY2_MODEL_ID,
  lumaStartInput,
  planClips,
  UNSUPPORTED_DURATION_MESSAGE,
  type ClipPlan,
} from './luma-request.js';
import { createLumaStatus, type ListKeys } from './luma-status.js';

export interface LumaVideoOptions {
  client: BedrockRuntimeClient;
  /** Confirms where the MP4 landed (needs s3:ListBucket on the output bucket). */
  listKeys?: ListKeys;
  modelId?: string;
}

/**
 * A chained clip names its place in `planClips(durationSeconds)`; without `clipIndex`, `start` renders clip 0.
 * For clip i > 0 the workflow passes the last frame of clip i - 1 as `image`.
 */
export type LumaStartRequest = VideoStartRequest & { clipIndex?: number };

export interface LumaVideoPort extends VideoPort {
  planClips(durationSeconds: number): ClipPlan[];
  /** `seconds`: the raw length of the clip that was started (finalize trims the joined clips). */
  start(request: LumaStartRequest): Promise<{ operationName: string; model: string; seconds: number }>;
}

export function createLumaVideo(options: LumaVideoOptions): LumaVideoPort {
  const modelId = options.modelId ?? LUMA_RAY2_MODEL_ID;

  return {
    planClips,

    async start(request) {
      const clip = planClips(request.durationSeconds)[request.clipIndex ?? 0];
      if (!clip) throw new ProviderError('unsupported', UNSUPPORTED_DURATION_MESSAGE);
      const input = await lumaStartInput(request, clip, modelId);
      const started = await callAws(() => options.client.send(new StartAsyncInvokeCommand(input)));
      if (!started.invocationArn) throw errorForAsyncFailure(null);
      return { operationName: started.invocationArn, model: `bedrock:${modelId}`, seconds: clip.seconds };
    },

    check: createLumaStatus(options).check,
  };
}
