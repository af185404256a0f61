// The operations construct and the reconciler in the synthesized template: what an operator is woken by (alarms on
// every dead-letter queue, Lambda errors and throttles of every function, each workflow's failed, timed-out and
// aborted executions, the API's 5xx and p99 latency, the reconciler's findings), where it goes (an SNS topic the
// `alarmEmail` context subscribes), what they look at (one dashboard), and the reconciler's schedule and grants.
import { Stack, type CfnElement } from 'aws-cdk-lib';
import { Match } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECONCILER_SCHEDULE_MINUTES } from '../../lambdas/workflows.js';
import { resourcesOfType, synthModelLoop, type CfnResource, type Synthesized } from './synth.js';

let synth: Synthesized;
let withoutEmail: Synthesized;
beforeAll(() => {
  synth = synthModelLoop({ nag: false, context: { alarmEmail: 'ops@example.com' } });
  withoutEmail = synthModelLoop({ nag: false });
});
afterAll(() => {
  synth?.dispose();
  withoutEmail?.dispose();
});

// An element's id in its own stack's template (the alarms and the topic are in the operations' nested stack).
const logicalId = (element: { node: { defaultChild?: unknown } }) => Stack.of(element.node.defaultChild as CfnElement).getLogicalId(element.node.defaultChild as CfnElement);
const alarms = () => resourcesOfType(synth.json, 'AWS::CloudWatch::Alarm').map(([, alarm]) => alarm);

/** The metrics an alarm watches: its own metric, or every metric of its math expression. */
function watched(alarm: CfnResource): { namespace: string; name: string; dimensions: Record<string, unknown>; stat?: string }[] {
  const p = alarm.Properties!;
  const dims = (list: { Name: string; Value: unknown }[] = []) => Object.fromEntries(list.map((d) => [d.Name, d.Value]));
  if (p.MetricName) return [{ namespace: p.Namespace, name: p.MetricName, dimensions: dims(p.Dimensions), stat: p.Statistic ?? p.ExtendedStatistic }];
  return (p.Metrics as any[])
    .filter((m) => m.MetricStat)
    .map((m) => ({ namespace: m.MetricStat.Metric.Namespace, name: m.MetricStat.Metric.MetricName, dimensions: dims(m.MetricStat.Metric.Dimensions), stat: m.MetricStat.Stat }));
}

const topicId = () => logicalId(synth.stack.operations.topic);
const notifiesTopic = (alarm: CfnResource) => JSON.stringify(alarm.Properties!.AlarmActions ?? []).includes(topicId());
const alarmsOn = (name: string, dimension: string, ref: string) =>
  alarms().filter((alarm) => watched(alarm).some((m) => m.name === name && JSON.stringify(m.dimensions[dimension] ?? '').includes(ref)));

describe('operations alarms', () => {
  it('alarm on a single message in every dead-letter queue of the stack, to the topic', () => {
    const queues = resourcesOfType(synth.json, 'AWS::SQS::Queue');
    expect(queues.length).toBeGreaterThanOrEqual(3);
    for (const [queueId] of queues) {
      const found = alarmsOn('ApproximateNumberOfMessagesVisible', 'QueueName', queueId);
      expect(found, queueId).toHaveLength(1);
      expect(found[0]!.Properties).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
      expect(notifiesTopic(found[0]!)).toBe(true);
    }
  });

  it('alarm on errors and throttles of every function of every group (API, workflows, realtime, operations)', () => {
    const { stack } = synth;
    const functions = [
      ...Object.values(stack.httpApi.functions),
      ...stack.workflows.functions,
      ...Object.values(stack.realtime.functions),
      stack.reconciler.function,
    ];
    expect(functions.length).toBeGreaterThan(30);
    for (const fn of functions) {
      for (const metric of ['Errors', 'Throttles']) {
        const found = alarmsOn(metric, 'FunctionName', logicalId(fn));
        expect(found, `${metric} of ${fn.node.path}`).toHaveLength(1);
        expect(notifiesTopic(found[0]!)).toBe(true);
        // CloudWatch takes at most 10 metrics in an alarm's math expression.
        expect(watched(found[0]!).length).toBeLessThanOrEqual(10);
      }
    }
  });

  it('alarm on failed, timed-out and aborted executions of each workflow', () => {
    for (const [name, stateMachine] of Object.entries(synth.stack.workflows.stateMachines)) {
      for (const metric of ['ExecutionsFailed', 'ExecutionsTimedOut', 'ExecutionsAborted']) {
        const found = alarmsOn(metric, 'StateMachineArn', logicalId(stateMachine));
        expect(found, `${metric} of ${name}`).toHaveLength(1);
        expect(notifiesTopic(found[0]!)).toBe(true);
      }
    }
  });

  it("alarm on the HTTP API's 5xx answers and its p99 latency", () => {
    const apiId = logicalId(synth.stack.httpApi.api);
    const [errors] = alarmsOn('5xx', 'ApiId', apiId);
    expect(watched(errors!)).toEqual([expect.objectContaining({ namespace: 'AWS/ApiGateway', stat: 'Sum' })]);
    const [latency] = alarmsOn('Latency', 'ApiId', apiId);
    expect(watched(latency!)).toEqual([expect.objectContaining({ namespace: 'AWS/ApiGateway', stat: 'p99' })]);
    expect(notifiesTopic(errors!) && notifiesTopic(latency!)).toBe(true);
  });

  it("alarm on any finding of the reconciler (the metric its runs emit)", () => {
    const found = alarms().filter((alarm) => watched(alarm).some((m) => m.namespace === 'ModelLoop' && m.name === 'ReconcilerFindings'));
    expect(found).toHaveLength(1);
    expect(found[0]!.Properties).toMatchObject({ Threshold: 1, TreatMissingData: 'notBreaching' });
  });
});

describe('alarm topic', () => {
  it('is subscribed by the alarmEmail context, TLS only', () => {
    synth.template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com', TopicArn: { Ref: topicId() } });
    synth.template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });

  it('has no subscriber without alarmEmail, and alarmEmail must be an address', () => {
    withoutEmail.template.resourceCountIs('AWS::SNS::Topic', 1);
    withoutEmail.template.resourceCountIs('AWS::SNS::Subscription', 0);
    expect(() => synthModelLoop({ nag: false, context: { alarmEmail: 'not-an-address' } })).toThrow(/alarmEmail/);
  });
});

describe('dashboard', () => {
  it('shows the alarms and the metrics they watch', () => {
    const dashboards = resourcesOfType(synth.json, 'AWS::CloudWatch::Dashboard');
    expect(dashboards).toHaveLength(1);
    const body = JSON.stringify(dashboards[0]![1].Properties!.DashboardBody);
    for (const metric of ['ApproximateNumberOfMessagesVisible', 'Errors', 'Throttles', 'ExecutionsFailed', 'ExecutionsTimedOut', 'ExecutionsAborted', '5xx', 'Latency', 'ReconcilerFindings', 'LedgerDrift']) {
      expect(body, metric).toContain(metric);
    }
    expect(body.replace(/\\/g, '')).toContain('"type":"alarm"');
  });
});

describe('reconciler', () => {
  it(`runs every ${RECONCILER_SCHEDULE_MINUTES} minutes with a dead-letter queue`, () => {
    const fnId = logicalId(synth.stack.reconciler.function);
    synth.template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: `rate(${RECONCILER_SCHEDULE_MINUTES} minutes)`,
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [fnId, 'Arn'] }, DeadLetterConfig: Match.anyValue() })],
    });
  });

  it('may read and write the records it settles and the ledger, through their indexes; of Step Functions, start and read the deletion workflow and only read the executions of the work it settles', () => {
    const fn = synth.json.Resources[logicalId(synth.stack.reconciler.function)]!;
    const roleId = fn.Properties!.Role['Fn::GetAtt'][0] as string;
    const policies = resourcesOfType(synth.json, 'AWS::IAM::Policy').filter(([, policy]) => JSON.stringify(policy.Properties!.Roles).includes(roleId));
    const statementList = policies.flatMap(([, policy]) => policy.Properties!.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[]);
    const statements = JSON.stringify(statementList);
    for (const index of ['/index/in_flight', '/index/by_type_time', '/index/deleting']) expect(statements).toContain(index);
    expect(statements).not.toContain('s3:');
    const deletionMachine = logicalId(synth.stack.workflows.stateMachines.deleteAccount!);
    const stateStatements = statementList.filter((statement) => JSON.stringify(statement.Action).includes('states:'));
    expect(stateStatements.length).toBeGreaterThan(0);
    const observed = ['generation', 'video', 'batch'];
    for (const statement of stateStatements) {
      const resource = JSON.stringify(statement.Resource);
      const observedOne = observed.find((name) => resource.includes(`-${name}:`));
      if (observedOne) {
        // The no-execution path looks an execution up before settling its record: describe, nothing else.
        expect(statement.Action, resource).toBe('states:DescribeExecution');
        continue;
      }
      // The deletion's state machine itself (start), or its executions by name (describe, stop).
      expect(resource, JSON.stringify(statement)).toMatch(new RegExp(`"${deletionMachine}"|:execution:[\\w-]+-deleteAccount:\\*`));
      for (const other of [...observed, 'webhookDelivery']) expect(resource).not.toContain(logicalId(synth.stack.workflows.stateMachines[other]!));
      expect(resource).not.toContain('-webhookDelivery:');
    }
    for (const name of observed) expect(JSON.stringify(stateStatements)).toContain(`-${name}:`);
    const env = fn.Properties!.Environment.Variables as Record<string, unknown>;
    expect(Object.keys(env)).toEqual(
      expect.arrayContaining(['TABLE_JOBS', 'TABLE_GENERATIONS', 'TABLE_PROFILES', 'TABLE_LEDGER', 'WORKFLOW_GENERATION_ARN', 'WORKFLOW_VIDEO_ARN', 'WORKFLOW_BATCH_ARN']),
    );
  });

  it('finds stuck work through sparse keys-only indexes', () => {
    for (const table of [synth.stack.data.tables.generations, synth.stack.data.tables.jobs, synth.stack.data.tables.batches]) {
      const properties = synth.json.Resources[logicalId(table)]!.Properties!;
      expect(properties.GlobalSecondaryIndexes).toEqual(
        expect.arrayContaining([expect.objectContaining({ IndexName: 'in_flight', Projection: { ProjectionType: 'KEYS_ONLY' } })]),
      );
    }
  });
});
