// An image sent inline, as base64 inside a JSON request body (generate-ai-image's `imageData`, generate-video's
// `imageBase64`). In the cloud the body travels inside a synchronous Lambda invocation, whose request payload is at
// most 6 MB (AWS Lambda, Invoke: "For synchronous invocations, the maximum payload size is 6 MB"); a larger one is
// refused by API Gateway before the handler runs, with no code. So the cap is derived from that budget, declared once
// here for both fields, the OpenAPI document and the web app; larger images go through the upload URL.
import * as z from 'zod';
import { MB } from './catalog.js';

/** A synchronous Lambda invocation's request payload (the HTTP API event around the body included). */
export const LAMBDA_PAYLOAD_BYTES = 6 * MB;
/**
 * What the rest of the invocation may take: the HTTP API event's headers (a Cognito token of a few KB), its request
 * context and authorizer claims, the body's other fields (a prompt of at most 2,000 characters, escaped) and a data:
 * URL prefix. 256 KB is about ten times what they measure.
 */
export const INLINE_IMAGE_ENVELOPE_BYTES = 256 * 1024;
/**
 * The largest image sent inline, decoded: base64 takes 4 characters per 3 bytes, so the budget holds
 * (6 MB − 256 KB) × 3/4 = 4,521,984 bytes (4.3 MB), rounded down to whole MB: 4 MB (4,194,304 bytes).
 */
export const INLINE_IMAGE_MAX_BYTES = Math.floor(((LAMBDA_PAYLOAD_BYTES - INLINE_IMAGE_ENVELOPE_BYTES) * 3) / 4 / MB) * MB;
/** Its base64 length (5,592,408 characters), plus room for a data: URL prefix. */
export const INLINE_IMAGE_MAX_CHARS = Math.ceil(INLINE_IMAGE_MAX_BYTES / 3) * 4 + 64;

/** Where a larger image goes: PUT to a signed URL from this route, then send its `imageKey`. */
export const GENERATION_UPLOAD_URL_PATH = '/generation-uploads/upload-url';

export const INLINE_IMAGE_TOO_LARGE = {
  status: 413,
  code: 'INLINE_IMAGE_TOO_LARGE',
  message: `Images sent inline can be at most ${INLINE_IMAGE_MAX_BYTES / MB} MB. Upload a larger image with POST ${GENERATION_UPLOAD_URL_PATH} and send its imageKey instead.`,
} as const;

/** What the OpenAPI document says of an inline image field. */
export const INLINE_IMAGE_DESCRIPTION =
  `The image as base64 or a data: URL, at most ${INLINE_IMAGE_MAX_BYTES / MB} MB decoded (${INLINE_IMAGE_MAX_CHARS.toLocaleString('en-US')} characters): ` +
  `a request reaches its function in at most 6 MB. Larger images (up to the upload URL's own limit): POST ${GENERATION_UPLOAD_URL_PATH}, PUT the file, send its imageKey. ` +
  `A larger inline image is refused with 413 ${INLINE_IMAGE_TOO_LARGE.code}.`;

/**
 * The field: a string of at most INLINE_IMAGE_MAX_CHARS, refused beyond with the code and status above (the http
 * wrapper answers a custom issue's `params`), and documented with its maxLength.
 */
export const inlineImageField = (required: string) =>
  z
    .string({ error: required })
    .min(1, required)
    .refine((value) => value.length <= INLINE_IMAGE_MAX_CHARS, { message: INLINE_IMAGE_TOO_LARGE.message, params: { code: INLINE_IMAGE_TOO_LARGE.code, status: INLINE_IMAGE_TOO_LARGE.status } })
    .meta({ maxLength: INLINE_IMAGE_MAX_CHARS, description: INLINE_IMAGE_DESCRIPTION });
