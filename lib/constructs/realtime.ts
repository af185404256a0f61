// Realtime: an API Gateway WebSocket API whose $connect is guarded by a Lambda authorizer that verifies the Cognito ID
// token passed as the `token` query parameter; connections are kept in the connections table (by user, with a TTL
// just over the 2-hour connection limit). The streams of profiles, clothing items, generations, jobs and batches feed
// ONE function, the streams' only consumer (batch item failures reported, bisect on error, a dead-letter queue): it posts
// each change to the owner's connections through the stage's management API and starts the webhook deliveries of
// records that reached their end state. One consumer per stream: each mapping may hold an execution at any moment,
// counted in the stage's concurrency budget (lib/concurrency.ts) with its parallelization factor.
import { Duration, Stack, Token, Validations, type CfnElement } from 'aws-cdk-lib';
import { WebSocketApi, WebSocketStage, type ThrottleSettings, type WebSocketRoute } from 'aws-cdk-lib/aws-apigatewayv2';
import { WebSocketLambdaAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { WebSocketLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { StartingPosition } from 'aws-cdk-lib/aws-lambda';
import { DynamoEventSource, SqsDlq } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { WEBSOCKET_TOKEN_PARAM } from '../../lambdas/contracts/api.js';
import { ID_TOKEN_ENV } from '../../lambdas/core/jwt.js';
import { tableEnvName, type TableName } from '../../lambdas/data/tables.js';
import { CALLBACK_URL_ENV } from '../../lambdas/realtime/fan-out.js';
import { STREAMED_TABLES } from '../../lambdas/realtime/messages.js';
import { REALTIME_FUNCTIONS, type RealtimeFunctionName } from '../../lambdas/realtime-functions.js';
import type { FunctionFactory } from './function-factory.js';

export interface RealtimeProps {
  functions: FunctionFactory;
  /** The stack's tables; the streamed ones feed the fan-out. */
  tables: Record<TableName, ITable>;
  /** `iss` of the user pool's tokens. */
  issuer: string;
  /** The web client id: the `aud` of its ID tokens. */
  audience: string;
  /** Stage-wide rate limits (connects and messages). */
  throttle?: ThrottleSettings;
  /** Each stream mapping's ParallelizationFactor: batches of one shard processed at once (the budget's line). */
  streamParallelization: number;
}

const STAGE_NAME = 'live';
const DEFAULT_THROTTLE: ThrottleSettings = { rateLimit: 50, burstLimit: 100 };
/** Records per fan-out invocation; no batching window, so a change is pushed as soon as it is read. */
const BATCH_SIZE = 100;

export class Realtime extends Construct {
  readonly api: WebSocketApi;
  readonly stage: WebSocketStage;
  /** wss://… — config.json `websocketUrl`. */
  readonly url: string;
  readonly functions: Record<RealtimeFunctionName, NodejsFunction>;
  readonly connectRoute: WebSocketRoute;
  readonly disconnectRoute: WebSocketRoute;
  /** Stream batches the consumer still failed after its retries: changes nobody was told about. */
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: RealtimeProps) {
    super(scope, id);
    const { functions } = props;

    // One function per entry of the realtime table, e.g. fanOut → FanOutFunction; only the environment is added here.
    const create = (name: RealtimeFunctionName, environment: Record<string, string> = {}) =>
      functions.create(this, `${name[0]!.toUpperCase()}${name.slice(1)}Function`, { ...REALTIME_FUNCTIONS[name], environment });
    const authorize = create('authorize', { [ID_TOKEN_ENV.issuer]: props.issuer, [ID_TOKEN_ENV.audience]: props.audience });
    const connect = create('connect');
    const disconnect = create('disconnect');

    this.api = new WebSocketApi(this, 'Api', { description: 'ModelLoop realtime: live credits and lists' });
    this.connectRoute = this.api.addRoute('$connect', {
      integration: new WebSocketLambdaIntegration('ConnectIntegration', connect),
      authorizer: new WebSocketLambdaAuthorizer('IdTokenAuthorizer', authorize, {
        identitySource: [`route.request.querystring.${WEBSOCKET_TOKEN_PARAM}`],
      }),
    });
    this.disconnectRoute = this.api.addRoute('$disconnect', {
      integration: new WebSocketLambdaIntegration('DisconnectIntegration', disconnect),
    });
    Validations.of(this.disconnectRoute).acknowledge({
      id: 'AwsSolutions-APIG4',
      reason: 'API Gateway authorizes a WebSocket connection once, at $connect (this API verifies the Cognito ID token there); $disconnect cannot have an authorizer.',
    });

    this.stage = new WebSocketStage(this, 'Stage', {
      webSocketApi: this.api,
      stageName: STAGE_NAME,
      autoDeploy: true,
      throttle: props.throttle ?? DEFAULT_THROTTLE,
    });
    Validations.of(this.stage).acknowledge({
      id: 'AwsSolutions-APIG1',
      reason: 'Access logging of a WebSocket stage needs the account-wide API Gateway CloudWatch role, which this stack does not own; every connect (with user id), disconnect and stale connection is logged by the functions behind the routes.',
    });
    this.url = this.stage.url;

    this.deadLetterQueue = new Queue(this, 'FanOutDeadLetters', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
    });
    Validations.of(this.deadLetterQueue).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the dead-letter destination of the table streams\' event sources.',
    });

    const fanOut = create('fanOut', {
      [CALLBACK_URL_ENV]: this.stage.callbackUrl,
      // Only the names, to tell which table a record comes from; the records themselves arrive in the event.
      ...Object.fromEntries(STREAMED_TABLES.map((table) => [tableEnvName(table), props.tables[table].tableName])),
    });
    // PostToConnection only (a gone connection is forgotten in the table, not through the API), on this stage only.
    const stack = Stack.of(this);
    const connectionsPath = `${STAGE_NAME}/POST/@connections/*`;
    fanOut.addToRolePolicy(
      new PolicyStatement({
        actions: ['execute-api:ManageConnections'],
        resources: [stack.formatArn({ service: 'execute-api', resource: this.api.apiId, resourceName: connectionsPath })],
      }),
    );
    const fanOutRole = fanOut.role!;
    // The ARN as cdk-nag prints it: pseudo parameters and the API's logical id in angle brackets.
    const shown = (value: string, pseudo: string) => (Token.isUnresolved(value) ? `<AWS::${pseudo}>` : value);
    const apiLogicalId = stack.getLogicalId(this.api.node.defaultChild as CfnElement);
    const shownArn = `arn:${shown(stack.partition, 'Partition')}:execute-api:${shown(stack.region, 'Region')}:${shown(stack.account, 'AccountId')}:<${apiLogicalId}>/${connectionsPath}`;
    Validations.of(fanOutRole).acknowledge({
      id: `AwsSolutions-IAM5[Resource::${shownArn}]`,
      reason: 'Connection ids are created by API Gateway at run time; the fan-out may post to any connection of this stage, and only to those.',
    });
    Validations.of(fanOutRole).acknowledge({
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason: 'dynamodb:ListStreams, which the stream event source mapping needs, has no resource-level permissions; the stream reads themselves are scoped to the streamed tables.',
    });
    for (const table of STREAMED_TABLES) {
      fanOut.addEventSource(
        new DynamoEventSource(props.tables[table], {
          startingPosition: StartingPosition.LATEST,
          batchSize: BATCH_SIZE,
          parallelizationFactor: props.streamParallelization,
          bisectBatchOnError: true,
          reportBatchItemFailures: true,
          // A webhook event is owed for up to 6 hours (its deliveries retry for days once started); a live message
          // that late is harmless ("reload this list").
          retryAttempts: 5,
          maxRecordAge: Duration.hours(6),
          onFailure: new SqsDlq(this.deadLetterQueue),
        }),
      );
    }
    this.functions = { authorize, connect, disconnect, fanOut };
  }
}
