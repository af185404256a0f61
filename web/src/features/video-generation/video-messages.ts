// The video screen's part of the error catalogue ("Video errors" and "Polling"): each server answer or
// failure mapped by its message content to the catalogue's toast title and text.
import { ApiError } from '@/lib/api';

export interface ToastText {
  title: string;
  description?: string;
}

export const VIDEO_MESSAGES = {
  insufficientCredits: { title: 'Insufficient Credits', description: "You don't have enough credits to generate this video." },
  contentPolicy: {
    title: 'Content Policy Violation',
    description: 'Your image was rejected by the content filters. Please use an image without recognizable people.',
  },
  network: { title: 'Network Error', description: 'Connection failed after multiple retries. Please check your connection and try again.' },
  authentication: { title: 'Authentication Required', description: 'Please sign in again to generate videos.' },
  noJobId: { title: 'Generation Failed', description: 'No job ID returned from generation' },
  signIn: { title: 'Authentication Required', description: 'Please sign in to generate videos' },
  imageRead: { title: 'Image Read Error', description: 'The image could not be read. Please choose the file again.' },
  imageRequired: { title: 'Error', description: 'Please upload an image first' },
  promptRequired: { title: 'Error', description: 'Please describe the motion you want' },
  pollingTimeout: { title: 'Polling Timeout', description: 'Use Check Status to resume polling' },
  pollingError: { title: 'Polling Error', description: 'The video status could not be checked. Use Check Status to try again.' },
  cannotResume: { title: 'Cannot Resume', description: 'There is no video job to resume. Please generate the video again.' },
  stillProcessing: { title: 'Still Processing', description: 'Your video is still being generated. Polling has resumed.' },
  failed: 'Failed to generate video. Please try again.',
  cancelled: { title: 'Video cancelled', description: 'Your credits were refunded.' },
  ready: { title: 'Video ready', description: 'Your looping video is ready.' },
  started: { title: 'Video generation started', description: 'Follow its progress in the Result panel; we tell you when it is ready.' },
} as const satisfies Record<string, ToastText | string>;

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** fetch, network and timeout failures: the only ones a video start is retried for. */
export function isNetworkLike(error: unknown): boolean {
  if (error instanceof ApiError && error.status > 0) return false;
  return /network|fetch|timeout/i.test(messageOf(error));
}

/** The toast for a failed video start, by the message's content. */
export function videoStartErrorToast(error: unknown): ToastText {
  const message = messageOf(error);
  if (message.includes('Insufficient credits')) return VIDEO_MESSAGES.insufficientCredits;
  if (message.includes('Content Policy')) return VIDEO_MESSAGES.contentPolicy;
  if (isNetworkLike(error)) return VIDEO_MESSAGES.network;
  if (/authenticated/i.test(message) || (error instanceof ApiError && error.status === 401)) return VIDEO_MESSAGES.authentication;
  return { title: 'Generation Failed', description: message || VIDEO_MESSAGES.failed };
}

/** The toast for a job that ended failed: its own message, or the catalogue's default. */
export function jobFailureToast(message: string | undefined): ToastText {
  if (message?.includes('Content Policy')) return { title: 'Content Policy Violation', description: message };
  return { title: 'Generation Failed', description: message || VIDEO_MESSAGES.failed };
}
