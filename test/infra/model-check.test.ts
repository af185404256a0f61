// The daily model check in the synthesized template: a stage that calls a cloud provider runs lambdas/handlers/
// model-check.ts once a day on an EventBridge schedule (with a dead-letter queue), the function gets the provider
// settings and only what asking needs (the key secrets of the providers in use, bedrock:GetFoundationModel on the
// Bedrock models in use; no table, no bucket, no model invocation), and its ModelsNotServed metric raises an alarm on
// the operations topic. A stage on the local engine calls no provider and has no check.
import { Stack, type CfnElement } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MODEL_CHECK_SCHEDULE_HOURS } from '../../lambdas/workflows.js';
import { cdkPath, resourcesOfType, synthModelLoop, type CfnResource, type Synthesized } from './synth.js';

const ALL_LOCAL = { imageProvider: 'local', editProvider: 'local', upscaleProvider: 'local', videoProvider: 'local' };
const FASHN = { fashnApiUrl: 'https://api.fashn.ai', fashnApiKeySecretName: 'modelloop/fashn-api-key' };
/** The same set (and so the same shared assembly) as test/infra/providers.test.ts. */
const BEDROCK_FASHN = { imageProvider: 'fashn', ...FASHN, editProvider: 'bedrock', upscaleProvider: 'bedrock', videoProvider: 'bedrock', pricingFile: 'lib/pricing/bedrock-fashn.json' };

let google: Synthesized;
let cloud: Synthesized;
let local: Synthesized;
beforeAll(() => {
  google = synthModelLoop({ nag: false });
  cloud = synthModelLoop({ context: { ...BEDROCK_FASHN, bedrockRegion: 'us-west-2', fashnOutputHosts: 'cdn.example.com' } });
  local = synthModelLoop({ context: ALL_LOCAL });
});
afterAll(() => [google, cloud, local].forEach((s) => s?.dispose()));

const checkFunction = (s: Synthesized): [string, CfnResource] | undefined =>
  resourcesOfType(s.json, 'AWS::Lambda::Function').find(([, fn]) => cdkPath(fn).endsWith('/ModelCheck/ModelCheckFunction/Resource'));

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  const node = value as Record<string, any>;
  if (node.Ref) return `\${${node.Ref}}`;
  if (node['Fn::GetAtt']) return `\${${node['Fn::GetAtt'].join('.')}}`;
  if (node['Fn::Join']) return (node['Fn::Join'][1] as unknown[]).map(text).join(node['Fn::Join'][0]);
  return JSON.stringify(value);
}

/** 'action resource' of every statement of the function's role. */
function grantsOf(s: Synthesized, fn: CfnResource): string[] {
  const roleId = fn.Properties!.Role['Fn::GetAtt'][0] as string;
  return resourcesOfType(s.json, 'AWS::IAM::Policy')
    .filter(([, policy]) => (policy.Properties!.Roles as { Ref: string }[]).some((role) => role.Ref === roleId))
    .flatMap(([, policy]) => policy.Properties!.PolicyDocument.Statement as Record<string, unknown>[])
    .flatMap((statement) => [statement.Action].flat().flatMap((action) => [statement.Resource].flat().map((resource) => `${String(action)} ${text(resource)}`)))
    .sort();
}

/** The grants beyond what every function of the stack gets (logs, X-Ray). */
const providerGrants = (s: Synthesized, fn: CfnResource) => grantsOf(s, fn).filter((grant) => !/^(xray|logs):/.test(grant));

describe('the daily model check', () => {
  it('runs once a day on a schedule, failed runs kept in a dead-letter queue', () => {
    const [id] = checkFunction(google)!;
    const rules = resourcesOfType(google.json, 'AWS::Events::Rule').filter(([, rule]) => JSON.stringify(rule.Properties!.Targets).includes(id));
    expect(rules).toHaveLength(1);
    const rule = rules[0]![1].Properties!;
    expect(MODEL_CHECK_SCHEDULE_HOURS).toBe(24);
    expect(rule.ScheduleExpression).toBe('rate(1 day)');
    expect(rule.State ?? 'ENABLED').toBe('ENABLED');
    const [target] = rule.Targets as Record<string, any>[];
    expect(target!.Arn).toEqual({ 'Fn::GetAtt': [id, 'Arn'] });
    expect(target!.RetryPolicy).toMatchObject({ MaximumRetryAttempts: 2 });
    const queueId = target!.DeadLetterConfig.Arn['Fn::GetAtt'][0] as string;
    expect(cdkPath(google.json.Resources[queueId]!)).toContain('/ModelCheck/ModelCheckDeadLetters/');
  });

  it('gets the Google settings and only the Gemini key secret: no table, bucket or model call', () => {
    const [, fn] = checkFunction(google)!;
    expect(fn.Properties!.Environment.Variables).toMatchObject({ PROVIDER_IMAGE: 'google', PROVIDER_VIDEO: 'google', GOOGLE_API_KEY_SECRET: 'modelloop/dev/google-api-key' });
    for (const name of ['GOOGLE_IMAGE_MODEL', 'GOOGLE_TEXT_MODEL', 'GOOGLE_VIDEO_MODEL']) expect(fn.Properties!.Environment.Variables[name], name).toEqual(expect.any(String));
    expect(providerGrants(google, fn)).toEqual(['secretsmanager:GetSecretValue arn:${AWS::Partition}:secretsmanager:${AWS::Region}:${AWS::AccountId}:secret:modelloop/dev/google-api-key-??????']);
  });

  it('with FASHN and Bedrock: the FASHN key secret and GetFoundationModel on exactly the models in use, nothing that invokes', () => {
    const [, fn] = checkFunction(cloud)!;
    expect(fn.Properties!.Environment.Variables).toMatchObject({ BEDROCK_REGION: 'us-west-2', FASHN_API_URL: 'https://api.fashn.ai', FASHN_API_KEY_SECRET: 'modelloop/fashn-api-key' });
    const foundation = (model: string) => `bedrock:GetFoundationModel arn:\${AWS::Partition}:bedrock:us-west-2::foundation-model/${model}`;
    expect(providerGrants(cloud, fn)).toEqual(
      [
        'secretsmanager:GetSecretValue arn:${AWS::Partition}:secretsmanager:${AWS::Region}:${AWS::AccountId}:secret:modelloop/fashn-api-key-??????',
        foundation('stability.stable-image-search-replace-v1:0'),
        foundation('stability.stable-image-search-recolor-v1:0'),
        foundation('stability.stable-image-remove-background-v1:0'),
        foundation('stability.stable-fast-upscale-v1:0'),
        foundation('luma.ray-v2:0'),
      ].sort(),
    );
  });

  it('raises an alarm on the operations topic when a model is not served', () => {
    const topic = google.stack.operations.topic.node.defaultChild as CfnElement;
    const topicId = Stack.of(topic).getLogicalId(topic);
    const found = resourcesOfType(google.json, 'AWS::CloudWatch::Alarm').filter(([, alarm]) => alarm.Properties!.MetricName === 'ModelsNotServed');
    expect(found).toHaveLength(1);
    const alarm = found[0]![1].Properties!;
    expect(alarm).toMatchObject({ Namespace: 'ModelLoop', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', Period: 86_400, TreatMissingData: 'notBreaching' });
    expect(JSON.stringify(alarm.AlarmActions)).toContain(topicId);
    expect(alarm.AlarmDescription).toContain('docs/operations.md');
    // And the check's own failures: its errors alarm like every function's, its dead letters like every queue's.
    const [id] = checkFunction(google)!;
    expect(resourcesOfType(google.json, 'AWS::CloudWatch::Alarm').some(([, other]) => JSON.stringify(other.Properties).includes(id) && JSON.stringify(other.Properties).includes('Errors'))).toBe(true);
  });

  it('is not deployed on a stage that calls no provider', () => {
    expect(checkFunction(local)).toBeUndefined();
    expect(resourcesOfType(local.json, 'AWS::CloudWatch::Alarm').filter(([, alarm]) => alarm.Properties!.MetricName === 'ModelsNotServed')).toHaveLength(1);
  });
});
