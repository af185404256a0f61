// The video port's operation name for a Gemini Omni clip: the interaction's resource name ("interactions/<id>", the
// path interactions.get reads) with the S3 location its MP4 is to be stored at, since the Gemini API keeps the clip as
// a file to download rather than writing to our bucket. Pure, shared by start and check.
import type { S3Location } from '../ports.js';

const SEPARATOR = '#s3://';
const PREFIX = 'interactions/';

export function omniOperationName(interactionId: string, output: S3Location): string {
  return `${PREFIX}${interactionId}${SEPARATOR}${output.bucket}/${output.key}`;
}

export function parseOmniOperationName(name: string): { interactionId: string; output: S3Location } | null {
  const at = name.indexOf(SEPARATOR);
  if (!name.startsWith(PREFIX) || at <= PREFIX.length) return null;
  const location = name.slice(at + SEPARATOR.length);
  const slash = location.indexOf('/');
  if (slash <= 0 || slash === location.length - 1) return null;
  return { interactionId: name.slice(PREFIX.length, at), output: { bucket: location.slice(0, slash), key: location.slice(slash + 1) } };
}
