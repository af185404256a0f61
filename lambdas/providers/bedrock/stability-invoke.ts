// One InvokeModel call to a Stability AI Image Service and the parsing of its documented response.
// Source: "Stability AI Image Services - Amazon Bedrock",
// https://docs.aws.amazon.com/bedrock/latest/userguide/stable-image-services.html, "Request and response":
//   request  – the JSON body of InvokeModel, e.g. { "image": "<base64>", "prompt": "...", "output_format": "png" }
//   response – { "seeds": [2130420379], "finish_reasons": [null], "images": ["<base64>"] }; a non-null
//              finish_reason ("Filter reason: prompt" | "Filter reason: output image" | "Filter reason: input image" |
//              "Inference error") means the request produced no usable image.
import { InvokeModelCommand, type BedrockRuntimeClient } from '@aws-sdk/client-bedrock-runtime';
import { ProviderError } from '../ports.js';
import { BEDROCK_FAILED_MESSAGE, callAws, errorForFinishReason } from './errors.js';

export type StabilityBody = Record<string, string | number>;

interface StabilityResponse {
  seeds?: unknown;
  finish_reasons?: unknown;
  images?: unknown;
}

const decoder = new TextDecoder();

/** The first image of a Stability response, or the ProviderError its finish reason stands for. */
export function imageFromStabilityResponse(raw: Uint8Array | undefined): Buffer {
  let parsed: StabilityResponse;
  try {
    parsed = JSON.parse(decoder.decode(raw)) as StabilityResponse;
  } catch {
    throw new ProviderError('failed', BEDROCK_FAILED_MESSAGE);
  }
  const reasons = Array.isArray(parsed.finish_reasons) ? (parsed.finish_reasons as unknown[]) : [];
  const refusal = errorForFinishReason(typeof reasons[0] === 'string' ? reasons[0] : null);
  if (refusal) throw refusal;
  const images = Array.isArray(parsed.images) ? (parsed.images as unknown[]) : [];
  const first = images[0];
  if (typeof first !== 'string' || first.length === 0) throw new ProviderError('failed', BEDROCK_FAILED_MESSAGE);
  return Buffer.from(first, 'base64');
}

export async function invokeStability(client: BedrockRuntimeClient, modelId: string, body: StabilityBody): Promise<Buffer> {
  const response = await callAws(() =>
    client.send(
      new InvokeModelCommand({
        modelId,
        contentType: 'application/json',
        accept: 'application/json',
        body: JSON.stringify(body),
      }),
    ),
  );
  return imageFromStabilityResponse(response.body);
}
