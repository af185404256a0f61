// The generation workflow's failures (lib/workflows/generation.asl.json): the States error names Process throws and
// the Fail task, which ends the generation with a message from the catalogue and refunds it.
//
// A thrown error's name is the States error name on both hosts (Lambda reports error.name as errorType;
// aws-local-stepfunctions uses error.name), so Retry and Catch in the ASL decide by these names. Only two failures
// carry their own text to the user: a content-policy refusal (the catalogue's message) and an instruction the
// engine does not understand (the engine's message, which lists what it understands). Everything else ends with
// the generic message: a provider's or a program's own text never reaches the user.
import { GENERATION_MESSAGES } from '../../contracts/generations.js';
import { log } from '../../core/log.js';
import { CONTENT_POLICY_MESSAGE } from '../../providers/ports.js';
import { failAndRefund, type GenerationWorkflowInput } from './service.js';

/** The States error names of the generation workflow. */
export const GENERATION_ERROR = {
  /** Throttling, timeouts, 5xx of a provider: the ASL retries it with backoff. */
  transient: 'ProviderTransientError',
  contentPolicy: 'ProviderContentPolicyError',
  unsupported: 'ProviderUnsupportedError',
  failed: 'ProviderFailedError',
  /** The stored input is not an image any more (deleted or replaced): not worth retrying. */
  badSource: 'GenerationSourceError',
} as const;

export class GenerationTaskError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

/** What Catch hands the Fail task: the States error name and its cause. */
export interface CaughtError {
  Error?: string;
  Cause?: string;
}

/** Fail: the row ends failed with the catalogue's message for the error, and what it cost is refunded once. */
export async function failGenerationTask({ userId, generationId, error }: GenerationWorkflowInput & { error?: CaughtError }): Promise<{ status: string }> {
  const message = failureMessage(error);
  log.info('generation failed', { generationId, error: error?.Error, message });
  const generation = await failAndRefund(userId, generationId, message);
  return { status: generation?.status ?? 'missing' };
}

export function failureMessage(error: CaughtError | undefined): string {
  switch (error?.Error) {
    case GENERATION_ERROR.contentPolicy:
      return CONTENT_POLICY_MESSAGE;
    case GENERATION_ERROR.unsupported:
      return causeMessage(error.Cause) ?? GENERATION_MESSAGES.genericFailure;
    default:
      return GENERATION_MESSAGES.genericFailure;
  }
}

/**
 * The message of the error that was thrown: on Lambda the cause is the JSON of the error
 * ({"errorType","errorMessage",…}), on the local twin the message itself.
 */
function causeMessage(cause: string | undefined): string | undefined {
  if (!cause) return undefined;
  try {
    const parsed: unknown = JSON.parse(cause);
    const message = (parsed as { errorMessage?: unknown } | null)?.errorMessage;
    return typeof message === 'string' && message ? message : undefined;
  } catch {
    return cause;
  }
}
