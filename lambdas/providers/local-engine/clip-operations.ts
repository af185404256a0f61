// The operations of the local video adapter: it renders a clip inside `start`, so an operation is only the clip's
// location, and checking it is reading that name back. No image code here: the workflow's CheckClip task loads this
// module alone (../video-status.ts), not the engine.
import { ProviderError, type S3Location, type VideoStatus } from '../ports.js';

const OPERATION = /^local:([^/]+)\/(.+)$/;

export function localClipOperation({ bucket, key }: S3Location): string {
  return `local:${bucket}/${key}`;
}

/** A local operation is complete as soon as it exists: the clip was written before `start` returned. */
export function checkLocalClip(operationName: string): VideoStatus {
  const match = OPERATION.exec(operationName);
  if (!match) return { state: 'failed', error: new ProviderError('failed', 'Unknown video operation.') };
  return { state: 'completed', output: { bucket: match[1]!, key: match[2]! } };
}
