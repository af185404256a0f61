// The daily model check (lambdas/handlers/model-check.ts) on an EventBridge schedule: once a day it asks each provider
// whether each model the stage calls is still served and counts what is not (ModelsNotServed), which the operations
// alarm watches (lib/constructs/operations.ts). It gets the provider settings and only what the question needs: the
// key secrets of the providers in use and bedrock:GetFoundationModel (ProviderAccess.grantModelCheck). A run that
// fails after the target's retries lands in a dead-letter queue, which the operations alarms watch like every other.
import { Duration, Validations } from 'aws-cdk-lib';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { MODEL_CHECK_FUNCTION, MODEL_CHECK_SCHEDULE_HOURS } from '../../lambdas/workflows.js';
import type { FunctionFactory } from './function-factory.js';
import type { ProviderAccess } from './provider-access.js';

export interface ModelCheckProps {
  functions: FunctionFactory;
  providers: ProviderAccess;
}

export class ModelCheck extends Construct {
  readonly function: NodejsFunction;
  readonly deadLetterQueue: Queue;
  readonly schedule: Rule;

  constructor(scope: Construct, id: string, props: ModelCheckProps) {
    super(scope, id);
    this.function = props.functions.create(this, 'ModelCheckFunction', MODEL_CHECK_FUNCTION);
    props.providers.grantModelCheck(this.function);
    this.deadLetterQueue = new Queue(this, 'ModelCheckDeadLetters', {
      enforceSSL: true,
      encryption: QueueEncryption.SQS_MANAGED,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the dead-letter queue of the model check schedule target.',
    });
    this.schedule = new Rule(this, 'Schedule', {
      description: 'Runs the model check: asks each provider whether each configured model is still served (ModelsNotServed alarms)',
      schedule: Schedule.rate(Duration.hours(MODEL_CHECK_SCHEDULE_HOURS)),
      targets: [new LambdaFunction(this.function, { deadLetterQueue: this.deadLetterQueue, retryAttempts: 2, maxEventAge: Duration.hours(1) })],
    });
  }
}
