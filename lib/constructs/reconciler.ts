// The reconciler (lambdas/handlers/reconciler.ts) on an EventBridge schedule: it settles work left in flight past its
// workflow's timeout and audits the ledgers that moved. A run that fails after the target's retries lands in a
// dead-letter queue, which the operations alarms watch like every other one.
import { Duration, Validations } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { RECONCILER_FUNCTION, RECONCILER_SCHEDULE_MINUTES } from '../../lambdas/workflows.js';
import type { FunctionFactory } from './function-factory.js';

export interface ReconcilerProps {
  functions: FunctionFactory;
}

export class Reconciler extends Construct {
  readonly function: NodejsFunction;
  readonly deadLetterQueue: Queue;
  readonly schedule: Rule;

  constructor(scope: Construct, id: string, props: ReconcilerProps) {
    super(scope, id);
    this.function = props.functions.create(this, 'ReconcilerFunction', RECONCILER_FUNCTION);
    this.deadLetterQueue = new Queue(this, 'ReconcilerDeadLetters', {
      enforceSSL: true,
      encryption: QueueEncryption.SQS_MANAGED,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the dead-letter queue of the reconciler schedule target.',
    });
    this.schedule = new Rule(this, 'Schedule', {
      description: 'Runs the reconciler: stuck generations and jobs are failed and refunded once; ledgers that moved are audited',
      schedule: Schedule.rate(Duration.minutes(RECONCILER_SCHEDULE_MINUTES)),
      targets: [new LambdaFunction(this.function, { deadLetterQueue: this.deadLetterQueue, retryAttempts: 2, maxEventAge: Duration.minutes(RECONCILER_SCHEDULE_MINUTES) })],
    });
  }
}
