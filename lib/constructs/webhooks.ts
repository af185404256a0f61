// Outgoing webhooks: the emitter reads the streams of generations, jobs and batches (beside the realtime fan-out,
// with its own retries, bisecting and a dead-letter queue) and starts one webhook-delivery execution per event and
// subscribed endpoint. The delivery workflow itself is an entry of the workflow table (lib/constructs/workflows.ts),
// so its failed executions (a schedule run out) raise the workflow alarms; the dead-letter queue raises its own.
import { Duration, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { tableEnvName, type TableName } from '../../lambdas/data/tables.js';
import { WEBHOOK_EMIT_FUNCTION, WEBHOOK_EMIT_TABLES } from '../../lambdas/workflows.js';
import type { FunctionFactory } from './function-factory.js';

export interface WebhooksProps {
  functions: FunctionFactory;
  tables: Record<TableName, ITable>;
}

export class Webhooks extends Construct {
  readonly emitter: NodejsFunction;
  /** Stream batches the emitter still failed after its retries: events nobody was told about. */
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: WebhooksProps) {
    super(scope, id);
    this.deadLetterQueue = new Queue(this, 'EmitDeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the dead-letter destination of the webhook emitter event sources.',
    });
    this.emitter = props.functions.create(this, 'EmitFunction', WEBHOOK_EMIT_FUNCTION);
    Validations.of(this.emitter.role!).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'dynamodb:ListStreams, which the stream event source mapping needs, has no resource-level permissions; the stream reads themselves are scoped to the three table streams.',
    });
    for (const table of WEBHOOK_EMIT_TABLES) {
      // The emitter tells a change's table by its name (streamedTableOf): the names, without any access to the tables.
      this.emitter.addEnvironment(tableEnvName(table), props.tables[table].tableName);
      this.emitter.addEventSource(
        new DynamoEventSource(props.tables[table], {
          startingPosition: StartingPosition.LATEST,
          batchSize: 100,
          bisectBatchOnError: true,
          reportBatchItemFailures: true,
          retryAttempts: 5,
          maxRecordAge: Duration.hours(6),
          onFailure: new SqsDlq(this.deadLetterQueue),
        }),
      );
    }
  }
}
