// The errors the video workflow's tasks throw, by name, and the message a job ends with for each (domain/task-errors.ts
// holds the one mapping; this is the video workflow's catalogue).
import { VIDEO_FAILURE_MESSAGES } from '../../contracts/video-failures.js';
import { TaskError, taskErrors } from '../task-errors.js';

export const VIDEO_ERROR = {
  /** The provider refused the input. */
  contentPolicy: 'VideoContentPolicy',
  /** The provider could not make the clip. */
  providerFailed: 'VideoProviderFailed',
  /** The request can't be made by this provider (e.g. a duration it doesn't support). */
  unsupported: 'VideoUnsupported',
  /** The provider account can't take paid requests (no billing): not retried. */
  providerAccount: 'VideoProviderAccount',
  /** Throttling, timeouts, 5xx: worth retrying (the ASL's Retry lists it). */
  providerBusy: 'VideoProviderBusy',
  /** The provider's clip was still not ready after the most checks the workflow makes (set by the ASL). */
  timedOut: 'VideoTimedOut',
} as const;

/** Errors the ASL retries: ours, and the Lambda service's own transient failures. */
export const RETRIED_ERRORS = [
  VIDEO_ERROR.providerBusy,
  'Lambda.ServiceException',
  'Lambda.AWSLambdaException',
  'Lambda.SdkClientException',
  'Lambda.TooManyRequestsException',
] as const;

/**
 * CheckClip retries those and its own timeout too: a check only reads, so running it again bills nothing, and a clip
 * Google has made is never given up (and refunded) because one check ran out of time. StartClip's timeout is not
 * retried: a start that timed out may have started a billed clip.
 */
export const CHECK_RETRIED_ERRORS = [...RETRIED_ERRORS, 'States.Timeout'] as const;

export { TaskError as WorkflowError };

const TASK_ERRORS = taskErrors({
  byKind: {
    content_policy: VIDEO_ERROR.contentPolicy,
    failed: VIDEO_ERROR.providerFailed,
    unsupported: VIDEO_ERROR.unsupported,
    transient: VIDEO_ERROR.providerBusy,
    account: VIDEO_ERROR.providerAccount,
  },
  messages: {
    [VIDEO_ERROR.contentPolicy]: VIDEO_FAILURE_MESSAGES.contentPolicy,
    [VIDEO_ERROR.providerFailed]: VIDEO_FAILURE_MESSAGES.providerFailed,
    [VIDEO_ERROR.providerBusy]: VIDEO_FAILURE_MESSAGES.providerFailed,
    [VIDEO_ERROR.providerAccount]: VIDEO_FAILURE_MESSAGES.providerAccount,
    [VIDEO_ERROR.unsupported]: VIDEO_FAILURE_MESSAGES.unsupported,
    [VIDEO_ERROR.timedOut]: VIDEO_FAILURE_MESSAGES.timedOut,
    'States.Timeout': VIDEO_FAILURE_MESSAGES.timedOut,
  },
  fallback: VIDEO_FAILURE_MESSAGES.internal,
});

/** A provider's failure as the workflow error of its kind; anything else is returned as it is (a crash). */
export const asWorkflowError = TASK_ERRORS.fromProvider;

/** Runs a provider call; its ProviderErrors leave as workflow errors. */
export const providerCall = TASK_ERRORS.providerCall;

/** The message a job that failed with this States error ends with; anything unexpected is 'internal'. */
export function failureMessage(errorName: string | undefined): string {
  return TASK_ERRORS.message(errorName);
}
