// Reading DynamoDB's transaction cancellation reasons, so callers can tell a lost race from a replay.
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/** The cancellation reason code of each item of a cancelled transaction, or undefined when it wasn't one. */
export function cancellationCodes(error: unknown): (string | undefined)[] | undefined {
  if (!(error instanceof TransactionCanceledException)) return undefined;
  return (error.CancellationReasons ?? []).map((reason) => reason.Code);
}

export function isConditionFailed(error: unknown): boolean {
  return (error as { name?: string } | null)?.name === 'ConditionalCheckFailedException';
}
