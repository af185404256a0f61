// The video port's operation name for a Veo clip: Veo's own long-running operation name
// ("models/veo-3.1-fast-generate-preview/operations/abc123") with the S3 location its MP4 is to be stored at, since the
// Gemini API keeps the clip as a file to download rather than writing to our bucket. Pure, shared by start and check.
import type { S3Location } from '../ports.js';

const SEPARATOR = '#s3://';

export function veoOperationName(operation: string, output: S3Location): string {
  return `${operation}${SEPARATOR}${output.bucket}/${output.key}`;
}

export function parseVeoOperationName(name: string): { operation: string; output: S3Location } | null {
  const at = name.indexOf(SEPARATOR);
  if (at <= 0) return null;
  const location = name.slice(at + SEPARATOR.length);
  const slash = location.indexOf('/');
  if (slash <= 0 || slash === location.length - 1) return null;
  return { operation: name.slice(0, at), output: { bucket: location.slice(0, slash), key: location.slice(slash + 1) } };
}
