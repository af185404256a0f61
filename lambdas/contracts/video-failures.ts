// How a video job ends when it fails, as the user reads it. Apart from the rest of the video contract (video.ts, which
// re-exports these) because it needs no zod: the workflow's tasks that settle jobs load these texts and no schemas.

/** A cancelled job is failed with exactly this message (the web app shows it as such). */
export const CANCELLED_BY_USER = 'Cancelled by user';

/**
 * Why a job failed, as the user reads it (error_message). The workflow never passes on a provider's or a program's
 * own text: each failure kind maps to one of these. 'Content Policy' is the phrase the web app's catalogue matches.
 */
export const VIDEO_FAILURE_MESSAGES = {
  contentPolicy:
    'Content Policy Violation: the image was rejected by the content filters. Please use an image without recognizable people. Your credits were refunded.',
  providerFailed: 'The AI service could not make this video. Your credits were refunded. Please try again.',
  providerAccount:
    "The studio's AI service cannot make videos right now: its provider account has no paid access (billing is not enabled). Your credits were refunded. Please contact support.",
  unsupported: 'This video cannot be made with these settings. Your credits were refunded.',
  timedOut: 'Making this video took too long, so it was stopped. Your credits were refunded. Please try again.',
  internal: 'Something went wrong while making this video. Your credits were refunded. Please try again.',
} as const;
