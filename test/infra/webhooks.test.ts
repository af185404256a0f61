// Outgoing webhooks in the synthesized stack: the delivery workflow (its Wait state between attempts, its failure end),
// the emitter behind the streams of generations, jobs and batches with batch item failures and a dead-letter queue,
// the alarms an operator gets for both failure paths, the routes behind the JWT authorizer, and no function in the
// cloud with the twin's allowance of local targets.
import type { CfnElement } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOKS_ALLOW_LOCAL_ENV } from '../../lambdas/domain/webhooks/rules.js';
import { WEBHOOK_EMIT_TABLES, WORKFLOWS } from '../../lambdas/workflows.js';
import { readWorkflowText } from '../../lib/workflows/index.js';
import { resourcesOfType, synthModelLoop, type Synthesized } from './synth.js';

let s: Synthesized;
beforeAll(() => {
  s = synthModelLoop({ nag: false });
});
afterAll(() => s?.dispose());

const idOf = (element: { node: { defaultChild?: unknown } }) => s.stack.getLogicalId(element.node.defaultChild as CfnElement);
const text = (value: unknown) => JSON.stringify(value);
const alarmsWatching = (id: string) => resourcesOfType(s.json, 'AWS::CloudWatch::Alarm').filter(([, alarm]) => text(alarm.Properties).includes(id));

describe('the delivery workflow', () => {
  it('is a state machine running the ASL file: one attempt per Deliver, a Wait state from the input between them, a Fail end', () => {
    const machine = s.stack.workflows.stateMachines.webhookDelivery!;
    const properties = s.json.Resources[idOf(machine)]!.Properties!;
    expect(properties.DefinitionString).toBe(readWorkflowText(WORKFLOWS.webhookDelivery));
    const asl = JSON.parse(readWorkflowText(WORKFLOWS.webhookDelivery));
    expect(asl.States.WaitToRetry).toEqual({ Type: 'Wait', SecondsPath: '$.waitSeconds', Next: 'Deliver' });
    expect(asl.States.GaveUp.Type).toBe('Fail');
    expect(Object.keys(properties.DefinitionSubstitutions)).toEqual(['Deliver']);
  });

  it('its Deliver task reads the resource and signs its URLs at each attempt: generations, jobs, batches, both buckets', () => {
    const [deliver, ...others] = resourcesOfType(s.json, 'AWS::Lambda::Function').filter(([id]) => id.includes('WebhookDeliveryDeliverFunction'));
    expect(deliver).toBeDefined();
    expect(others).toEqual([]);
    const env = Object.keys(deliver![1].Properties!.Environment.Variables);
    expect(env).toEqual(expect.arrayContaining(['TABLE_WEBHOOKS', 'TABLE_GENERATIONS', 'TABLE_JOBS', 'TABLE_BATCHES', 'BUCKET_RESULTS', 'BUCKET_CLOTHING_IMAGES']));
  });

  it('its failed executions (a schedule run out) raise an alarm', () => {
    const failed = alarmsWatching(idOf(s.stack.workflows.stateMachines.webhookDelivery!)).filter(([, alarm]) => text(alarm.Properties).includes('ExecutionsFailed'));
    expect(failed).toHaveLength(1);
  });
});

describe('the emitter', () => {
  it('reads the generations, jobs and batches streams, reports batch item failures, bisects and sends what still fails to its dead-letter queue', () => {
    const emitterId = idOf(s.stack.webhooks.emitter);
    const queueId = idOf(s.stack.webhooks.deadLetterQueue);
    const mappings = resourcesOfType(s.json, 'AWS::Lambda::EventSourceMapping').filter(([, mapping]) => text(mapping.Properties!.FunctionName).includes(emitterId));
    const streamsOf = mappings.map(([, mapping]) => text(mapping.Properties!.EventSourceArn));
    expect(mappings).toHaveLength(WEBHOOK_EMIT_TABLES.length);
    for (const table of WEBHOOK_EMIT_TABLES) expect(streamsOf.some((arn) => arn.includes(idOf(s.stack.data.tables[table])))).toBe(true);
    for (const [, mapping] of mappings) {
      expect(mapping.Properties).toMatchObject({ FunctionResponseTypes: ['ReportBatchItemFailures'], BisectBatchOnFunctionError: true, StartingPosition: 'LATEST' });
      expect(text(mapping.Properties!.DestinationConfig.OnFailure.Destination)).toContain(queueId);
    }
    expect(alarmsWatching(queueId)).toHaveLength(1);
  });

  it('may start delivery executions and read the owner endpoints, and nothing of the resources: the events carry ids', () => {
    const env = Object.keys(s.json.Resources[idOf(s.stack.webhooks.emitter)]!.Properties!.Environment.Variables);
    // The streamed tables' names tell a change's table apart (no access to them comes with the names).
    expect(env).toEqual(expect.arrayContaining(['WORKFLOW_WEBHOOK_DELIVERY_ARN', 'TABLE_WEBHOOKS', 'TABLE_GENERATIONS', 'TABLE_JOBS', 'TABLE_BATCHES']));
    expect(env).not.toContain('BUCKET_RESULTS');
  });
});

describe('the routes and the address rules', () => {
  it('serves the five webhook routes behind the JWT authorizer', () => {
    const routes = resourcesOfType(s.json, 'AWS::ApiGatewayV2::Route').map(([, route]) => route.Properties!);
    for (const key of ['POST /webhooks', 'GET /webhooks', 'GET /webhooks/deliveries', 'DELETE /webhooks/{id}', 'POST /webhooks/{id}/test']) {
      const route = routes.find((properties) => properties.RouteKey === key);
      expect(route, key).toBeDefined();
      expect(route!.AuthorizationType).toBe('JWT');
    }
  });

  it('no function of the stack gets the twin allowance of http and loopback targets', () => {
    for (const [id, fn] of resourcesOfType(s.json, 'AWS::Lambda::Function')) {
      expect(Object.keys(fn.Properties?.Environment?.Variables ?? {}), id).not.toContain(WEBHOOKS_ALLOW_LOCAL_ENV);
    }
  });
});
