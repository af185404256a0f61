// The errors the video workflow's tasks throw, by name. A thrown error's name is the States error name on both hosts
// (Lambda reports it as the errorType; aws-local-stepfunctions uses error.name), so the ASL's Retry and Catch and
// the failure message a job ends with are decided by these names alone: a provider's or a program's own text never
// reaches the user.
import { VIDEO_FAILURE_MESSAGES } from '../../contracts/video-failures.js';
import { ProviderError } from '../../providers/ports.js';

export const VIDEO_ERROR = {
  /** The provider refused the input. */
  contentPolicy: 'VideoContentPolicy',
  /** The provider could not make the clip. */
  providerFailed: 'VideoProviderFailed',
  /** The request can't be made by this provider (e.g. a duration it doesn't support). */
  unsupported: 'VideoUnsupported',
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

export class WorkflowError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

const NAME_BY_KIND: Record<ProviderError['kind'], string> = {
  content_policy: VIDEO_ERROR.contentPolicy,
  failed: VIDEO_ERROR.providerFailed,
  unsupported: VIDEO_ERROR.unsupported,
  transient: VIDEO_ERROR.providerBusy,
};

/** A provider's failure as the workflow error of its kind; anything else is returned as it is (a crash). */
export function asWorkflowError(error: unknown): unknown {
  return error instanceof ProviderError ? new WorkflowError(NAME_BY_KIND[error.kind], error.message) : error;
}

/** Runs a provider call; its ProviderErrors leave as workflow errors. */
export async function providerCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw asWorkflowError(error);
  }
}

const MESSAGE_BY_NAME: Record<string, string> = {
  [VIDEO_ERROR.contentPolicy]: VIDEO_FAILURE_MESSAGES.contentPolicy,
  [VIDEO_ERROR.providerFailed]: VIDEO_FAILURE_MESSAGES.providerFailed,
  [VIDEO_ERROR.providerBusy]: VIDEO_FAILURE_MESSAGES.providerFailed,
  [VIDEO_ERROR.unsupported]: VIDEO_FAILURE_MESSAGES.unsupported,
  [VIDEO_ERROR.timedOut]: VIDEO_FAILURE_MESSAGES.timedOut,
  'States.Timeout': VIDEO_FAILURE_MESSAGES.timedOut,
};

/** The message a job that failed with this States error ends with; anything unexpected is 'internal'. */
export function failureMessage(errorName: string | undefined): string {
  return (errorName && MESSAGE_BY_NAME[errorName]) || VIDEO_FAILURE_MESSAGES.internal;
}
