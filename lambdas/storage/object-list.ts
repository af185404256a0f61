// The keys under a prefix of a bucket, by one presigned ListObjectsV2 GET sent with fetch instead of the S3 client:
// the video workflow's CheckClip task finds a provider's MP4 this way and so carries neither the S3 client nor its
// XML protocol (about 150 KB of its bundle). A failure is thrown as the SDK would throw it (the S3 error code as
// `name`, the HTTP status in `$metadata`), so callers map it as they map SDK errors.
import { presignObjectListing } from './presign.js';

const LIST_TIMEOUT_MS = 10_000;

/** At most the first 1,000 keys (one page), which is all a provider's output folder holds. */
export async function listObjectKeys(bucket: string, prefix: string): Promise<string[]> {
  const url = await presignObjectListing(bucket, prefix, 60);
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(LIST_TIMEOUT_MS) });
  } catch (error) {
    // fetch reports a network failure as a TypeError whose cause carries the system code (ECONNRESET, …).
    const code = (error as { cause?: { code?: unknown } }).cause?.code;
    throw typeof code === 'string' ? Object.assign(new Error(`Listing s3://${bucket}/${prefix} failed: ${code}`), { code }) : error;
  }
  const body = await response.text();
  if (!response.ok) {
    const code = /<Code>([^<]+)<\/Code>/.exec(body)?.[1] ?? 'S3ServiceException';
    throw Object.assign(new Error(`Listing s3://${bucket}/${prefix} answered ${response.status} ${code}`), {
      name: code,
      $metadata: { httpStatusCode: response.status },
    });
  }
  return [...body.matchAll(/<Key>([^<]*)<\/Key>/g)].map((match) => xmlText(match[1]!));
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The text of an XML element: the five named entities and numeric references decoded. */
function xmlText(raw: string): string {
  return raw.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (entity, name: string) => {
    if (name.startsWith('#x') || name.startsWith('#X')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    return ENTITIES[name] ?? entity;
  });
}
