// The generation workflow's failures (lib/workflows/generation.asl.json): the States error names Process throws and
// the Fail task, which ends the generation with a message from the catalogue and refunds it.
//
// A thrown error's name is the States error name on both hosts (Lambda reports error.name as errorType;
// aws-local-stepfunctions uses error.name), so Retry and Catch in the ASL decide by these names. Only two failures
// carry their own text to the user: a content-policy refusal (the catalogue's message) and an instruction the
// engine does not understand (the engine's message, which lists what it understands). Everything else ends with
// the generic message: a provider's or a program's own text never reaches the user. (A refusal's own text and an
// account problem's are the catalogue's: PROVIDER_MESSAGES in contracts/catalog.ts.)
import { PROVIDER_MESSAGES } from '../../contracts/catalog.js';
import { GENERATION_MESSAGES } from '../../contracts/generations.js';
import type { CaughtError } from '../../contracts/workflows.js';
import { log } from '../../core/log.js';
import { OWN_MESSAGE, TaskError, taskErrors, type TaskErrorCatalogue } from '../task-errors.js';
import { failAndRefund, type GenerationWorkflowInput } from './service.js';

/** The States error names of the generation workflow. */
export const GENERATION_ERROR = {
  /** Throttling, timeouts, 5xx of a provider: the ASL retries it with backoff. */
  transient: 'ProviderTransientError',
  contentPolicy: 'ProviderContentPolicyError',
  unsupported: 'ProviderUnsupportedError',
  failed: 'ProviderFailedError',
  /** The provider account can't take paid requests (no billing): not retried, its message says so. */
  account: 'ProviderAccountError',
  /** The stored input is not an image any more (deleted or replaced): not worth retrying. */
  badSource: 'GenerationSourceError',
} as const;

/** The generation workflow's catalogue; the batch workflow runs the same Process task and reuses its names. */
export const GENERATION_TASK_ERRORS = {
  byKind: {
    transient: GENERATION_ERROR.transient,
    content_policy: GENERATION_ERROR.contentPolicy,
    unsupported: GENERATION_ERROR.unsupported,
    failed: GENERATION_ERROR.failed,
    account: GENERATION_ERROR.account,
  },
  // A refusal reads as what was refused (PROVIDER_MESSAGES: policy, recitation, personal data), an account problem as
  // itself: the adapters throw the catalogue's own texts for these, and any other text reads as the policy message.
  messages: {
    [GENERATION_ERROR.contentPolicy]: { oneOf: [PROVIDER_MESSAGES.contentPolicy, PROVIDER_MESSAGES.recitation, PROVIDER_MESSAGES.personalData], otherwise: PROVIDER_MESSAGES.contentPolicy },
    [GENERATION_ERROR.unsupported]: OWN_MESSAGE,
    [GENERATION_ERROR.account]: { oneOf: [PROVIDER_MESSAGES.accountNotPaid], otherwise: GENERATION_MESSAGES.genericFailure },
  },
  fallback: GENERATION_MESSAGES.genericFailure,
} satisfies TaskErrorCatalogue;

/** The generation workflow's task errors (domain/task-errors.ts holds the one mapping). */
export const generationTaskErrors = taskErrors(GENERATION_TASK_ERRORS);

export { TaskError as GenerationTaskError };

/** What Catch hands the Fail task: the States error name and its cause. */
export type { CaughtError };

/** Fail: the row ends failed with the catalogue's message for the error, and what it cost is refunded once. */
export async function failGenerationTask({ userId, generationId, error }: GenerationWorkflowInput & { error?: CaughtError }): Promise<{ status: string }> {
  const message = failureMessage(error);
  log.info('generation failed', { generationId, error: error?.Error, message });
  const generation = await failAndRefund(userId, generationId, message);
  return { status: generation?.status ?? 'missing' };
}

export function failureMessage(error: CaughtError | undefined): string {
  return generationTaskErrors.message(error?.Error, error?.Cause);
}
