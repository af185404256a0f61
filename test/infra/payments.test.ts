// How a stage takes payments, from CDK context: Stripe's secrets granted to exactly the functions that call Stripe,
// the test payment only on test stages and never on prod (synthesis fails), and the webhook endpoint's URL output.
import type { CfnElement } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAYMENT_FUNCTIONS } from '../../lib/constructs/payments.js';
import { nagFindings, resourcesOfType, synthModelLoop, type CfnResource, type Synthesized } from './synth.js';

/** A stage other than dev names its own https origin(s). */
const HTTPS_ORIGIN = 'https://studio.example.com';
const STAGING = { webOrigins: HTTPS_ORIGIN, stage: 'staging', googleClientId: 'client-123.apps.googleusercontent.com' };
const SECRET_ARN = (name: string) => `arn:\${AWS::Partition}:secretsmanager:\${AWS::Region}:\${AWS::AccountId}:secret:${name}-??????`;

/** A CloudFormation value as text: Refs and GetAtts as ${Name} / ${Name.Attr}, joins concatenated. */
function text(value: unknown): string {
  if (typeof value === 'string') return value;
  const node = value as Record<string, any>;
  if (node.Ref) return `\${${node.Ref}}`;
  if (node['Fn::GetAtt']) return `\${${node['Fn::GetAtt'].join('.')}}`;
  if (node['Fn::Join']) return (node['Fn::Join'][1] as unknown[]).map(text).join(node['Fn::Join'][0]);
  return JSON.stringify(value);
}

function fnOf(s: Synthesized, handler: string): CfnResource {
  const fn = s.stack.httpApi.functions[handler as keyof typeof s.stack.httpApi.functions];
  return s.json.Resources[s.stack.getLogicalId(fn.node.defaultChild as CfnElement)]!;
}

function secretGrants(s: Synthesized, fn: CfnResource): string[] {
  const roleId = fn.Properties!.Role['Fn::GetAtt'][0] as string;
  return resourcesOfType(s.json, 'AWS::IAM::Policy')
    .filter(([, policy]) => (policy.Properties!.Roles as { Ref: string }[]).some((role) => role.Ref === roleId))
    .flatMap(([, policy]) => policy.Properties!.PolicyDocument.Statement as Record<string, unknown>[])
    .filter((statement) => [statement.Action].flat().some((action) => String(action).startsWith('secretsmanager:')))
    .flatMap((statement) => [statement.Resource].flat().map((resource) => `${[statement.Action].flat().join(',')} ${text(resource)}`));
}

describe('synthesis refuses settings that give credits away', () => {
  it.each([
    [{ stage: 'prod', payments: 'test' }, /payments=test is refused on stage 'prod'/],
    [{ stage: 'prod', testPayments: 'true' }, /testPayments=true is refused on stage 'prod'/],
    [{ stage: 'prod', testPayments: true }, /testPayments=true is refused on stage 'prod'/],
    [{ stage: 'prod', testPayments: true, testStages: 'prod' }, /testStages can't include 'prod'/],
    [{ stage: 'qa', payments: 'test' }, /allowed only on a test stage \(testStages: dev, staging\), not on 'qa'/],
    [{ stage: 'qa', payments: 'test', testStages: 'dev,qa,prod' }, /testStages can't include 'prod'/],
    [{ stage: 'staging', payments: 'free' }, /payments must be stripe, test or off/],
    [{ stage: 'staging', payments: 'stripe', testPayments: 'true' }, /contradicts payments=stripe/],
  ])('%j', (context, message) => {
    expect(() => synthModelLoop({ nag: false, context: { webOrigins: HTTPS_ORIGIN, ...context } })).toThrow(message);
  });
});

describe('Stripe on a staging stage (the default for every stage but dev)', () => {
  let s: Synthesized;
  beforeAll(() => {
    s = synthModelLoop({ context: STAGING });
  });
  afterAll(() => s?.dispose());

  it('passes cdk-nag with nothing unacknowledged', () => {
    expect(nagFindings(s.assembly.directory)).toEqual([]);
  });

  it('tells the payment functions the mode and stage, and the web app the mode', () => {
    for (const handler of Object.keys(PAYMENT_FUNCTIONS)) {
      expect(fnOf(s, handler).Properties!.Environment.Variables, handler).toMatchObject({ PAYMENTS: 'stripe', STAGE: 'staging' });
    }
    expect(s.stack.web.runtimeConfig).toMatchObject({ payments: 'stripe', testPayments: false });
  });

  it('lets exactly the functions that call Stripe read exactly the secrets they use', () => {
    const apiKey = SECRET_ARN('modelloop/staging/stripe-api-key');
    const webhook = SECRET_ARN('modelloop/staging/stripe-webhook-secret');
    expect(secretGrants(s, fnOf(s, 'create-checkout-session'))).toEqual([`secretsmanager:GetSecretValue ${apiKey}`]);
    expect(secretGrants(s, fnOf(s, 'request-refund'))).toEqual([`secretsmanager:GetSecretValue ${apiKey}`]);
    expect(secretGrants(s, fnOf(s, 'stripe-webhook'))).toEqual([`secretsmanager:GetSecretValue ${apiKey}`, `secretsmanager:GetSecretValue ${webhook}`]);
    expect(secretGrants(s, fnOf(s, 'purchase-credits'))).toEqual([]);
    expect(fnOf(s, 'create-checkout-session').Properties!.Environment.Variables).toMatchObject({ STRIPE_API_KEY_SECRET_NAME: 'modelloop/staging/stripe-api-key' });
    expect(fnOf(s, 'stripe-webhook').Properties!.Environment.Variables).toMatchObject({
      STRIPE_API_KEY_SECRET_NAME: 'modelloop/staging/stripe-api-key',
      STRIPE_WEBHOOK_SECRET_NAME: 'modelloop/staging/stripe-webhook-secret',
    });
    for (const [id, fn] of resourcesOfType(s.json, 'AWS::Lambda::Function')) {
      const variables = (fn.Properties!.Environment?.Variables ?? {}) as Record<string, unknown>;
      // Secret values never travel in the environment, only names.
      expect(Object.keys(variables).filter((name) => name === 'STRIPE_SECRET_KEY' || name === 'STRIPE_WEBHOOK_SECRET'), id).toEqual([]);
    }
  });

  it('sends the buyer back to the web app and outputs the webhook endpoint URL to give Stripe', () => {
    const webUrl = fnOf(s, 'create-checkout-session').Properties!.Environment.Variables.WEB_URL;
    expect(text(webUrl)).toMatch(/^https:\/\/\$\{Web\w+\.DomainName\}$/);
    expect(text(s.json.Outputs!.StripeWebhookUrl!.Value)).toMatch(/^https:\/\/\$\{HttpApi\w+\}\.execute-api\..*\/webhooks\/stripe$/);
  });

  it('serves the webhook without a token, and the other payment routes only with one', () => {
    const routes = resourcesOfType(s.json, 'AWS::ApiGatewayV2::Route').map(([, route]) => route.Properties!);
    expect(routes.find((route) => route.RouteKey === 'POST /webhooks/stripe')!.AuthorizationType).toBe('NONE');
    for (const key of ['POST /credits/checkout', 'POST /credits/refund-requests', 'GET /credits/purchases', 'POST /credits/purchase']) {
      expect(routes.find((route) => route.RouteKey === key)!.AuthorizationType, key).toBe('JWT');
    }
  });
});

describe('other modes', () => {
  it("dev defaults to 'off' and prod to 'stripe'; 'test' on a test stage grants no Stripe secret", () => {
    const dev = synthModelLoop({ nag: false });
    const prod = synthModelLoop({ nag: false, context: { stage: 'prod', webOrigins: HTTPS_ORIGIN, googleClientId: STAGING.googleClientId } });
    const test = synthModelLoop({ nag: false, context: { ...STAGING, payments: 'test' } });
    try {
      expect(fnOf(dev, 'purchase-credits').Properties!.Environment.Variables).toMatchObject({ PAYMENTS: 'off', STAGE: 'dev' });
      expect(fnOf(prod, 'purchase-credits').Properties!.Environment.Variables).toMatchObject({ PAYMENTS: 'stripe', STAGE: 'prod' });
      expect(prod.stack.web.runtimeConfig).toMatchObject({ payments: 'stripe', testPayments: false });
      expect(fnOf(test, 'purchase-credits').Properties!.Environment.Variables).toMatchObject({ PAYMENTS: 'test', STAGE: 'staging' });
      for (const handler of Object.keys(PAYMENT_FUNCTIONS)) expect(secretGrants(test, fnOf(test, handler)), handler).toEqual([]);
      expect(test.json.Outputs!.StripeWebhookUrl).toBeUndefined();
    } finally {
      dev.dispose();
      prod.dispose();
      test.dispose();
    }
  });
});
