// X-Ray tracing with Powertools for AWS Lambda's Tracer, for the functions that call an AI provider only: the tracer
// brings aws-xray-sdk-core (about 125 KB minified), which would take every other bundle past its 400 KB budget, while
// Lambda's active tracing (set on every function by CDK) already records each invocation and its duration. Here a
// provider call gets its own subsegment, annotated with the record it works for, so a slow or failing provider shows
// in the trace map. Outside Lambda (the twin, tests) the tracer is disabled and this only runs the call.
import { Tracer } from '@aws-lambda-powertools/tracer';
import { SERVICE_NAME, userHash } from './log.js';

const tracer = new Tracer({ serviceName: SERVICE_NAME });

/** Runs `call` in the subsegment `name`, annotated with `keys` (a user id only as its hash). */
export async function traced<T>(name: string, keys: { userId?: string; generationId?: string; jobId?: string }, call: () => Promise<T>): Promise<T> {
  const parent = tracer.isTracingEnabled() ? tracer.getSegment() : undefined;
  if (!parent) return call();
  const subsegment = parent.addNewSubsegment(name);
  tracer.setSegment(subsegment);
  if (keys.userId) tracer.putAnnotation('userHash', userHash(keys.userId));
  if (keys.generationId) tracer.putAnnotation('generationId', keys.generationId);
  if (keys.jobId) tracer.putAnnotation('jobId', keys.jobId);
  try {
    return await call();
  } catch (error) {
    if (error instanceof Error) subsegment.addError(error);
    throw error;
  } finally {
    subsegment.close();
    tracer.setSegment(parent);
  }
}
