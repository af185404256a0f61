// Outgoing webhooks in the synthesized stack: the delivery workflow (its Wait state between attempts, its failure end),
// the events emitted by the table streams' one consumer (beside the live updates) with a dead-letter queue,
// the alarms an operator gets for both failure paths, the routes behind the JWT authorizer, and no function in the
// cloud with the twin's allowance of local targets.
import type { CfnElement } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOKS_ALLOW_LOCAL_ENV } from '../../lambdas/domain/webhooks/rules.js';
import { WORKFLOWS } from '../../lambdas/workflows.js';
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

describe('webhook events from the table streams', () => {
  it('are emitted by the streams’ one consumer, which may start delivery executions and read the owners’ endpoints, and nothing of the resources', () => {
    // The realtime fan-out emits them (lambdas/handlers/ws-fan-out.ts): one consumer per stream keeps the stage within
    // its concurrency budget. Its mappings report batch item failures, bisect and dead-letter (test/infra/realtime.test.ts).
    const consumerId = idOf(s.stack.realtime.functions.fanOut);
    const mappings = resourcesOfType(s.json, 'AWS::Lambda::EventSourceMapping');
    expect(mappings.every(([, mapping]) => text(mapping.Properties!.FunctionName).includes(consumerId))).toBe(true);
    for (const table of ['generations', 'jobs', 'batches'] as const) {
      expect(mappings.some(([, mapping]) => text(mapping.Properties!.EventSourceArn).includes(idOf(s.stack.data.tables[table]))), table).toBe(true);
    }
    const env = Object.keys(s.json.Resources[consumerId]!.Properties!.Environment.Variables);
    // The streamed tables' names tell a change's table apart (no access to them comes with the names).
    expect(env).toEqual(expect.arrayContaining(['WORKFLOW_WEBHOOK_DELIVERY_ARN', 'TABLE_WEBHOOKS', 'TABLE_GENERATIONS', 'TABLE_JOBS', 'TABLE_BATCHES']));
    expect(env).not.toContain('BUCKET_RESULTS');
    expect(alarmsWatching(idOf(s.stack.realtime.deadLetterQueue))).toHaveLength(1);
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
