// The realtime part of the synthesized stack: the WebSocket API with its $connect authorizer, the connections table,
// and the streams of the four live tables feeding one fan-out function with batch item failures and a dead-letter queue.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CfnElement } from 'aws-cdk-lib';
import { TABLES, tableEnvName, type TableName } from '../../lambdas/data/tables.js';
import { STREAMED_TABLES } from '../../lambdas/realtime/messages.js';
import { resourcesOfType, synthModelLoop, type CfnResource, type Synthesized } from './synth.js';

let s: Synthesized;
beforeAll(() => {
  s = synthModelLoop({ nag: false });
});
afterAll(() => s?.dispose());

const idOf = (element: unknown): string => s.stack.getLogicalId(element as CfnElement);
const resource = (id: string): CfnResource => {
  const found = s.json.Resources[id];
  if (!found) throw new Error(`No resource ${id}`);
  return found;
};
const refOf = (value: unknown): string | undefined => (value as { Ref?: string } | undefined)?.Ref;
const getAttOf = (value: unknown): string | undefined => (value as { 'Fn::GetAtt'?: [string, string] })?.['Fn::GetAtt']?.[0];
const text = (value: unknown) => JSON.stringify(value);

const apiId = () => idOf(s.stack.realtime.api.node.defaultChild);
const functionId = (name: keyof Synthesized['stack']['realtime']['functions']) => idOf(s.stack.realtime.functions[name].node.defaultChild);
const tableId = (name: TableName) => idOf(s.stack.data.tables[name].node.defaultChild);
/** The statements of the policies attached to a function's role. */
function statementsOf(fnId: string): { Action: string | string[]; Resource: unknown; Effect: string }[] {
  const roleId = getAttOf(resource(fnId).Properties!.Role)!;
  return resourcesOfType(s.json, 'AWS::IAM::Policy')
    .filter(([, policy]) => policy.Properties!.Roles.some((role: unknown) => refOf(role) === roleId))
    .flatMap(([, policy]) => policy.Properties!.PolicyDocument.Statement);
}
/** The function an API Gateway v2 integration invokes. */
const integrationTarget = (integrationId: string) => text(resource(integrationId).Properties!.IntegrationUri);

describe('websocket api', () => {
  it('is a WebSocket API with exactly $connect and $disconnect', () => {
    expect(resource(apiId()).Properties).toMatchObject({ ProtocolType: 'WEBSOCKET', RouteSelectionExpression: '$request.body.action' });
    const routes = resourcesOfType(s.json, 'AWS::ApiGatewayV2::Route').filter(([, route]) => refOf(route.Properties!.ApiId) === apiId());
    expect(routes.map(([, route]) => route.Properties!.RouteKey).sort()).toEqual(['$connect', '$disconnect']);
  });

  it('authorizes $connect with a REQUEST Lambda authorizer on the token query string that verifies the pool ID tokens', () => {
    const connect = resource(idOf(s.stack.realtime.connectRoute.node.defaultChild)).Properties!;
    expect(connect.AuthorizationType).toBe('CUSTOM');
    const authorizer = resource(refOf(connect.AuthorizerId)!).Properties!;
    expect(authorizer).toMatchObject({ AuthorizerType: 'REQUEST', IdentitySource: ['route.request.querystring.token'] });
    expect(refOf(authorizer.ApiId)).toBe(apiId());
    expect(text(authorizer.AuthorizerUri)).toContain(functionId('authorize'));

    const env = resource(functionId('authorize')).Properties!.Environment.Variables;
    expect(text(env.ID_TOKEN_ISSUER)).toContain('https://cognito-idp.');
    expect(text(env.ID_TOKEN_ISSUER)).toContain(idOf(s.stack.auth.userPool.node.defaultChild));
    expect(refOf(env.ID_TOKEN_AUDIENCE)).toBe(idOf(s.stack.auth.webClient.node.defaultChild));
    // The authorizer touches no table.
    expect(statementsOf(functionId('authorize')).filter((statement) => text(statement.Action).includes('dynamodb:'))).toEqual([]);
  });

  it('routes $connect and $disconnect to their functions, which write the connections table only', () => {
    const disconnect = resource(idOf(s.stack.realtime.disconnectRoute.node.defaultChild)).Properties!;
    expect(disconnect.AuthorizationType).toBe('NONE');
    const connect = resource(idOf(s.stack.realtime.connectRoute.node.defaultChild)).Properties!;
    const integrationOf = (route: Record<string, any>) => refOf((route.Target['Fn::Join'][1] as unknown[])[1])!;
    expect(integrationTarget(integrationOf(connect))).toContain(functionId('connect'));
    expect(integrationTarget(integrationOf(disconnect))).toContain(functionId('disconnect'));
    for (const name of ['connect', 'disconnect'] as const) {
      const env = resource(functionId(name)).Properties!.Environment.Variables;
      expect(refOf(env[tableEnvName('connections')])).toBe(tableId('connections'));
      const tablesTouched = statementsOf(functionId(name))
        .filter((statement) => text(statement.Action).includes('dynamodb:'))
        .map((statement) => text(statement.Resource));
      expect(tablesTouched.length).toBeGreaterThan(0);
      for (const touched of tablesTouched) expect(touched).toContain(tableId('connections'));
    }
  });

  it('has one throttled, auto-deployed stage and publishes its wss URL', () => {
    const stages = resourcesOfType(s.json, 'AWS::ApiGatewayV2::Stage').filter(([, stage]) => refOf(stage.Properties!.ApiId) === apiId());
    expect(stages).toHaveLength(1);
    expect(stages[0]![1].Properties).toMatchObject({
      StageName: 'live',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: expect.any(Number), ThrottlingBurstLimit: expect.any(Number) },
    });
    expect(text(s.json.Outputs?.WebSocketUrl?.Value)).toContain('wss://');
  });
});

describe('connections table', () => {
  it('is keyed by connection id, indexed by user, and expires items by TTL', () => {
    const props = resource(tableId('connections')).Properties!;
    expect(props.KeySchema).toEqual([{ AttributeName: 'connection_id', KeyType: 'HASH' }]);
    expect(props.GlobalSecondaryIndexes).toEqual([
      expect.objectContaining({ IndexName: 'by_user', KeySchema: [{ AttributeName: 'user_id', KeyType: 'HASH' }] }),
    ]);
    expect(props.TimeToLiveSpecification).toEqual({ AttributeName: 'expires_at', Enabled: true });
  });
});

describe('fan-out', () => {
  const mappings = () => resourcesOfType(s.json, 'AWS::Lambda::EventSourceMapping');

  const fanOutMappings = () => mappings().filter(([, mapping]) => refOf(mapping.Properties!.FunctionName) === functionId('fanOut'));

  it('reads the stream of each live table, and only those, as the streams’ one consumer (webhook events included)', () => {
    // One mapping per stream, all of them the fan-out's: each is a line of the concurrency budget (lib/concurrency.ts).
    expect(fanOutMappings()).toHaveLength(mappings().length);
    expect(STREAMED_TABLES.sort()).toEqual(['batches', 'clothingItems', 'generations', 'jobs', 'profiles', 'publications']);
    for (const name of Object.keys(TABLES) as TableName[]) {
      const stream = resource(tableId(name)).Properties!.StreamSpecification;
      expect(stream, name).toEqual(STREAMED_TABLES.includes(name as never) ? { StreamViewType: 'NEW_AND_OLD_IMAGES' } : undefined);
    }
    expect(fanOutMappings().map(([, mapping]) => getAttOf(mapping.Properties!.EventSourceArn)).sort()).toEqual(
      STREAMED_TABLES.map((name) => tableId(name)).sort(),
    );
  });

  it('feeds one function with batch item failures, bisection, bounded retries and a dead-letter queue', () => {
    const queueId = idOf(s.stack.realtime.deadLetterQueue.node.defaultChild);
    for (const [id, mapping] of fanOutMappings()) {
      expect(mapping.Properties, id).toMatchObject({
        StartingPosition: 'LATEST',
        FunctionResponseTypes: ['ReportBatchItemFailures'],
        BisectBatchOnFunctionError: true,
        MaximumRetryAttempts: expect.any(Number),
        DestinationConfig: { OnFailure: { Destination: { 'Fn::GetAtt': [queueId, 'Arn'] } } },
      });
      expect(mapping.Properties!.MaximumRetryAttempts).toBeGreaterThan(0);
    }
    expect(resource(queueId).Properties).toMatchObject({ SqsManagedSseEnabled: true });
    const policy = resourcesOfType(s.json, 'AWS::SQS::QueuePolicy').find(([, p]) => text(p.Properties!.Queues).includes(queueId));
    expect(text(policy?.[1].Properties!.PolicyDocument)).toContain('aws:SecureTransport');
  });

  it('posts through the stage management API and may only post there, and deletes stale connections', () => {
    const fn = resource(functionId('fanOut')).Properties!;
    expect(text(fn.Environment.Variables.WEBSOCKET_CALLBACK_URL)).toContain(apiId());
    expect(text(fn.Environment.Variables.WEBSOCKET_CALLBACK_URL)).toContain('/live');
    for (const name of STREAMED_TABLES) expect(refOf(fn.Environment.Variables[tableEnvName(name)]), name).toBe(tableId(name));

    const statements = statementsOf(functionId('fanOut'));
    const manage = statements.filter((statement) => text(statement.Action).includes('execute-api:'));
    expect(manage).toHaveLength(1);
    expect(manage[0]!.Action).toBe('execute-api:ManageConnections');
    expect(text(manage[0]!.Resource)).toContain(apiId());
    expect(text(manage[0]!.Resource)).toContain('/live/POST/@connections/*');
    // Writes (the 410 clean-up) go to the connections table only; the live tables are only read as streams.
    const writes = statements.filter((statement) => text(statement.Action).includes('dynamodb:DeleteItem'));
    expect(writes.map((statement) => text(statement.Resource)).every((arn) => arn.includes(tableId('connections')))).toBe(true);
    for (const name of STREAMED_TABLES) {
      const onTable = statements.filter((statement) => text(statement.Resource).includes(tableId(name)));
      expect(onTable.flatMap((statement) => [statement.Action].flat()).every((action) => /^dynamodb:(DescribeStream|GetRecords|GetShardIterator|ListStreams)$/.test(action)), name).toBe(true);
    }
  });
});
