// The Google providers in the cloud and the stage's prices: a stage that selects google gets the Gemini key secret
// granted to exactly the provider tasks (and the Omni check may store its clip), the model settings in their
// environment, and cdk-nag passes; the stage's pricing tiers are seeded from its configuration; and synth refuses a
// stage that sells an operation below its provider's list cost, naming the tier, its price and the cost, unless the
// stage allows it on purpose (then synth prints it).
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GOOGLE_DEFAULTS } from '../../lambdas/providers/google/models.js';
import { WORKFLOWS, type TaskFunction, type WorkflowDefinition } from '../../lambdas/workflows.js';
import { pascalCase } from '../../lib/constructs/names.js';
import { cdkPath, nagFindings, resourcesOfType, synthModelLoop, type CfnResource, type Synthesized } from './synth.js';

/** The committed default set (cdk.json), stated here so the test reads on its own. */
const GOOGLE_SET = { imageProvider: 'google', editProvider: 'google', upscaleProvider: 'local', videoProvider: 'google', pricingFile: 'lib/pricing/google.json' };
const SECRET = 'arn:${AWS::Partition}:secretsmanager:${AWS::Region}:${AWS::AccountId}:secret:modelloop/dev/google-api-key-??????';

const taskPaths = Object.entries(WORKFLOWS as Record<string, WorkflowDefinition>).flatMap(([workflow, definition]) =>
  Object.entries(definition.tasks).map(([placeholder, task]): [string, string, TaskFunction] => [`${workflow}.${placeholder}`, `/Workflows/${pascalCase(workflow)}${placeholder}Function/Resource`, task]),
);

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  const node = value as Record<string, any>;
  if (node.Ref) return `\${${node.Ref}}`;
  if (node['Fn::GetAtt']) return `\${${node['Fn::GetAtt'].join('.')}}`;
  if (node['Fn::Join']) return (node['Fn::Join'][1] as unknown[]).map(text).join(node['Fn::Join'][0]);
  throw new Error(`Cannot render ${JSON.stringify(value)}`);
}

function functionOf(s: Synthesized, task: string): CfnResource {
  const path = taskPaths.find(([name]) => name === task)![1];
  return resourcesOfType(s.json, 'AWS::Lambda::Function').find(([, fn]) => cdkPath(fn).endsWith(path))![1];
}

/** 'action resource' lines of a function's role, for secrets and raw-clip writes. */
function grants(s: Synthesized, fn: CfnResource): string[] {
  const roleId = fn.Properties!.Role['Fn::GetAtt'][0] as string;
  return [
    ...new Set(
      resourcesOfType(s.json, 'AWS::IAM::Policy')
        .filter(([, policy]) => (policy.Properties!.Roles as { Ref: string }[]).some((role) => role.Ref === roleId))
        .flatMap(([, policy]) => policy.Properties!.PolicyDocument.Statement as Record<string, unknown>[])
        .flatMap((statement) => [statement.Action].flat().flatMap((action) => [statement.Resource].flat().map((resource) => `${action} ${text(resource)}`)))
        .filter((grant) => /^secretsmanager:|^s3:PutObject .*\/raw\//.test(grant) && !grant.includes('ApiKeyPepper')),
    ),
  ].sort();
}

let google: Synthesized;
beforeAll(() => {
  google = synthModelLoop({ context: GOOGLE_SET });
}, 900_000);
afterAll(() => google?.dispose());

describe('Google providers in the cloud', () => {
  it('grant the Gemini key secret to the provider tasks, and the raw-clip write to the video tasks', () => {
    expect(grants(google, functionOf(google, 'generation.Process'))).toEqual([`secretsmanager:GetSecretValue ${SECRET}`]);
    expect(grants(google, functionOf(google, 'batch.MakePhoto'))).toEqual([`secretsmanager:GetSecretValue ${SECRET}`]);
    for (const task of ['video.StartClip', 'video.CheckClip']) {
      const found = grants(google, functionOf(google, task));
      expect(found[0], task).toMatch(/^s3:PutObject \$\{\w+\.Arn\}\/\*\/videos\/\*\/raw\/\*$/);
      expect(found.slice(1), task).toEqual([`secretsmanager:GetSecretValue ${SECRET}`]);
    }
    expect(grants(google, functionOf(google, 'video.CompleteJob'))).toEqual([]);
  });

  it('pass the model settings to the provider tasks', () => {
    expect(functionOf(google, 'video.CheckClip').Properties!.Environment.Variables).toMatchObject({
      PROVIDER_VIDEO: 'google',
      GOOGLE_API_KEY_SECRET: 'modelloop/dev/google-api-key',
      GOOGLE_IMAGE_MODEL: GOOGLE_DEFAULTS.imageModel,
      GOOGLE_TEXT_MODEL: GOOGLE_DEFAULTS.textModel,
      GOOGLE_IMAGE_MAX_SIZE: GOOGLE_DEFAULTS.imageMaxSize,
      GOOGLE_VIDEO_MODEL: GOOGLE_DEFAULTS.videoModel,
      GOOGLE_VIDEO_RESOLUTION: GOOGLE_DEFAULTS.videoResolution,
    });
  });

  it('finds nothing unacknowledged by cdk-nag', () => {
    expect(nagFindings(google.assembly.directory)).toEqual([]);
  });

  it('seeds the stage\'s configured prices: video per duration', () => {
    const seeded = resourcesOfType(google.json, 'Custom::AWS')
      .map(([, resource]) => JSON.stringify(resource.Properties!.Create))
      .filter((call) => call.includes('video-'));
    const credits = (id: string) => /\\"credits_cost\\":\{\\"N\\":\\"(\d+)\\"\}/.exec(seeded.find((call) => call.includes(`\\"${id}\\"`))!)?.[1];
    expect([credits('video-5s'), credits('video-8s'), credits('video-16s')]).toEqual(['9', '10', '20']);
  });
});

describe('the margin check', () => {
  it('refuses a stage selling below its provider\'s cost, naming the tier, its price and the cost', () => {
    expect(() => synthModelLoop({ nag: false, context: { ...GOOGLE_SET, stage: 'prod', pricing: { 'video-8s': 1, 'video-16s': 15 } } })).toThrow(
      /Stage 'prod' would sell below[\s\S]*video-8s: sells at 1 credit \(\$0\.100\), costs \$0\.841 \(google:gemini-omni-1\.1-flash 720p, 8 s delivered in 1 clip\)[\s\S]*video-16s: sells at 15 credits \(\$1\.50\), costs \$1\.68/,
    );
    expect(() => synthModelLoop({ nag: false, context: { ...GOOGLE_SET, googleImageModel: 'gemini-3-pro-image', googleImageMaxSize: '4K' } })).toThrow(
      /image-generation: sells at 1 credit \(\$0\.100\), costs \$0\.240 \(google:gemini-3-pro-image 4K/,
    );
  });

  it('holds for the default set on a prod stage: every tier at or above its list cost', () => {
    const prod = synthModelLoop({ nag: false, context: { stage: 'prod', webOrigins: 'https://studio.example.com' } });
    expect(prod.stack.stackName).toBe('ModelLoop-prod');
  }, 300_000);

  it('refuses a model id the dated table does not know, naming the table, and a shut-down one, naming its replacement', () => {
    expect(() => synthModelLoop({ nag: false, context: { googleImageModel: 'gemini-9-image' } })).toThrow(
      /googleImageModel 'gemini-9-image' is not in the google model table \(lambdas\/providers\/google\/model-table\.ts\); models served today: [\s\S]*gemini-3\.1-flash-image/,
    );
    expect(() => synthModelLoop({ nag: false, context: { googleImageModel: 'gemini-3.1-flash-image-preview' } })).toThrow(
      /googleImageModel 'gemini-3\.1-flash-image-preview': google shut this model down on 2026-06-25; use 'gemini-3\.1-flash-image'/,
    );
    // The Veo previews Google retired on 2026-10-22, with the model that replaces them.
    for (const veo of ['veo-3.1-fast-generate-preview', 'veo-3.1-generate-preview']) {
      expect(() => synthModelLoop({ nag: false, context: { googleVideoModel: veo } })).toThrow(
        new RegExp(`googleVideoModel '${veo.replace(/\./g, '\\.')}': google shut this model down on 2026-10-22; use '${GOOGLE_DEFAULTS.videoModel.replace(/\./g, '\\.')}'`),
      );
    }
    expect(() => synthModelLoop({ nag: false, context: { googleVideoModel: 'veo-9' } })).toThrow(/googleVideoModel 'veo-9' is not in the google model table/);
  });

  it('goes by the clock: a model past its shutdown date is refused, one within 60 days of it is printed', () => {
    const text = { googleTextModel: 'gemini-3.1-flash-lite' };
    // A fresh synth each time (`modify` is never shared): the check reads the clock when the stage is synthesized.
    const fresh = () => synthModelLoop({ nag: false, context: text, modify: () => undefined });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-12-01T00:00:00Z'));
      fresh().dispose();
      expect(warn.mock.calls.flat().join('\n')).not.toMatch(/shut down within/);
      vi.setSystemTime(new Date('2027-04-01T00:00:00Z'));
      fresh().dispose();
      expect(warn.mock.calls.flat().join('\n')).toMatch(
        /Stage 'dev' calls models that shut down within 60 days:\n {2}googleTextModel 'gemini-3\.1-flash-lite': google shuts this model down on 2027-05-07 \(in 36 days\); move to 'gemini-3\.5-flash-lite'/,
      );
      vi.setSystemTime(new Date('2027-05-07T00:00:00Z'));
      expect(fresh).toThrow(/googleTextModel 'gemini-3\.1-flash-lite': google shut this model down on 2027-05-07; use 'gemini-3\.5-flash-lite'/);
    } finally {
      vi.useRealTimers();
      warn.mockRestore();
    }
  }, 900_000);

  it('lets a stage allow it on purpose, and prints what sells below cost', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const allowed = synthModelLoop({ nag: false, context: { ...GOOGLE_SET, pricingFile: '', allowBelowCost: true } });
      allowed.dispose();
      expect(warn.mock.calls.flat().join('\n')).toMatch(/Stage 'dev' sells below its providers' cost, allowed by context allowBelowCost:[\s\S]*video-5s: sells at 1 credit \(\$0\.100\), costs \$0\.537/);
    } finally {
      warn.mockRestore();
    }
  }, 300_000);
});
