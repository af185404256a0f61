// The errors the workflows' tasks throw, and the messages a failed task ends with, in one shape for every workflow.
// A thrown error's name is the States error name on both hosts (Lambda reports error.name as the errorType;
// aws-local-stepfunctions uses error.name), so the ASL's Retry and Catch, and the message the user reads, are decided
// by these names alone: a provider's or a program's own text never reaches the user unless a catalogue says so.
import { ProviderError, type ProviderErrorKind } from '../providers/ports.js';

/** An error a task throws on purpose; its name is the States error name the ASL matches. */
export class TaskError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

/** In `messages`: the user reads the thrown error's own message (for errors whose message is written for users). */
export const OWN_MESSAGE = Symbol('own message');

/**
 * In `messages`: the thrown error's own message when it is one of `oneOf` (texts written for users, e.g. the
 * catalogue's refusals), else `otherwise`: a provider's own words never pass for one of ours.
 */
export interface OwnMessageOneOf {
  oneOf: readonly string[];
  otherwise: string;
}

export interface TaskErrorCatalogue {
  /** The States error name a provider failure of each kind is thrown as. */
  byKind: Record<ProviderErrorKind, string>;
  /** The user's message for a caught States error name. */
  messages: Record<string, string | typeof OWN_MESSAGE | OwnMessageOneOf>;
  /** The message for every other error: ours or unknown. */
  fallback: string;
}

export interface TaskErrors {
  /** A provider's failure as the task error of its kind; anything else is returned as it is (a crash). */
  fromProvider(error: unknown): unknown;
  /** Runs a provider call; its ProviderErrors leave as task errors. */
  providerCall<T>(call: () => Promise<T>): Promise<T>;
  /** The message a task that failed with this States error (and cause) ends with. */
  message(errorName: string | undefined, cause?: string): string;
}

export function taskErrors(catalogue: TaskErrorCatalogue): TaskErrors {
  const fromProvider = (error: unknown): unknown =>
    error instanceof ProviderError ? new TaskError(catalogue.byKind[error.kind], error.message) : error;
  return {
    fromProvider,
    async providerCall(call) {
      try {
        return await call();
      } catch (error) {
        throw fromProvider(error);
      }
    },
    message(errorName, cause) {
      const message = errorName === undefined || !Object.hasOwn(catalogue.messages, errorName) ? undefined : catalogue.messages[errorName];
      if (message === OWN_MESSAGE) return causeMessage(cause) ?? catalogue.fallback;
      if (typeof message === 'object') {
        const own = causeMessage(cause);
        return own !== undefined && message.oneOf.includes(own) ? own : message.otherwise;
      }
      return message ?? catalogue.fallback;
    },
  };
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
