// The cloud side of the AI providers and of ffmpeg: the workflow tasks that call a provider get the selected adapters'
// settings and exactly the IAM they call (nothing for 'local'), the tasks that run ffmpeg get the media layer on
// x86_64, and every variant passes cdk-nag with only the unavoidable wildcards acknowledged.
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { AssetStaging, CfnElement } from 'aws-cdk-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WORKFLOWS, type TaskFunction, type WorkflowDefinition } from '../../lambdas/workflows.js';
import { pascalCase } from '../../lib/constructs/names.js';
import { cdkPath, nagFindings, resourcesOfType, synthModelLoop, type CfnResource, type Synthesized } from './synth.js';

const ALL_LOCAL = { imageProvider: 'local', editProvider: 'local', upscaleProvider: 'local', videoProvider: 'local' };
/** FASHN's settings, which cdk.json no longer carries (its default set is Google's). */
const FASHN = { fashnApiUrl: 'https://api.fashn.ai', fashnApiKeySecretName: 'modelloop/fashn-api-key' };
/** The FASHN + Bedrock provider set (an option; the committed default is the Google set). */
const BEDROCK_FASHN = { imageProvider: 'fashn', ...FASHN, editProvider: 'bedrock', upscaleProvider: 'bedrock', videoProvider: 'bedrock', pricingFile: 'lib/pricing/bedrock-fashn.json' };
/** Video on Luma or FASHN costs more than the Google set's prices: those sets ship their own. */
const VIDEO_PRICES = { pricingFile: 'lib/pricing/bedrock-fashn.json' };
const PROFILE_REGIONS = ['us-east-1', 'us-east-2', 'us-west-2'];
const EDIT_MODELS = ['stability.stable-image-search-replace-v1:0', 'stability.stable-image-search-recolor-v1:0', 'stability.stable-image-remove-background-v1:0'];
const UPSCALE_MODELS = ['stability.stable-fast-upscale-v1:0'];
const PROVIDER_ENV = ['BEDROCK_REGION', 'FASHN_API_URL', 'FASHN_API_KEY_SECRET', 'FASHN_OUTPUT_HOSTS'];

/** Tasks by 'workflow.Placeholder'. */
const tasks = Object.entries(WORKFLOWS as Record<string, WorkflowDefinition>).flatMap(([workflow, definition]) =>
  Object.entries(definition.tasks).map(([placeholder, task]): [string, string, TaskFunction] => [`${workflow}.${placeholder}`, `/Workflows/${pascalCase(workflow)}${placeholder}Function/Resource`, task]),
);

/** A CloudFormation value as text: Refs and GetAtts as ${Name} / ${Name.Attr}, joins concatenated. */
function text(value: unknown): string {
  if (typeof value === 'string') return value;
  const node = value as Record<string, any>;
  if (node.Ref) return `\${${node.Ref}}`;
  if (node['Fn::GetAtt']) return `\${${node['Fn::GetAtt'].join('.')}}`;
  if (node['Fn::Sub']) return node['Fn::Sub'];
  if (node['Fn::Join']) return (node['Fn::Join'][1] as unknown[]).map(text).join(node['Fn::Join'][0]);
  throw new Error(`Cannot render ${JSON.stringify(value)}`);
}

interface Statement {
  actions: string[];
  resources: string[];
  condition?: unknown;
}

function functionOf(s: Synthesized, task: string): [string, CfnResource] {
  const path = tasks.find(([name]) => name === task)![1];
  const found = resourcesOfType(s.json, 'AWS::Lambda::Function').find(([, fn]) => cdkPath(fn).endsWith(path));
  if (!found) throw new Error(`No function for ${task}`);
  return found;
}

function statementsOf(s: Synthesized, fn: CfnResource): Statement[] {
  const roleId = fn.Properties!.Role['Fn::GetAtt'][0] as string;
  return resourcesOfType(s.json, 'AWS::IAM::Policy')
    .filter(([, policy]) => (policy.Properties!.Roles as { Ref: string }[]).some((role) => role.Ref === roleId))
    .flatMap(([, policy]) => policy.Properties!.PolicyDocument.Statement as Record<string, unknown>[])
    .map((statement) => ({
      actions: [statement.Action as string | string[]].flat(),
      resources: [statement.Resource].flat().map(text),
      condition: statement.Condition,
    }));
}

/** 'action resource' for every Bedrock and Secrets Manager permission of a function. */
function providerGrants(s: Synthesized, fn: CfnResource): string[] {
  return statementsOf(s, fn)
    .flatMap((statement) => statement.actions.flatMap((action) => statement.resources.map((resource) => `${action} ${resource}`)))
    .filter((grant) => /^(bedrock|secretsmanager):/.test(grant))
    // The API keys' pepper is a secret of ours, not a provider's.
    .filter((grant) => !grant.includes('ApiKeyPepper'))
    .sort();
}

const RAW_CLIPS = '*/videos/*/raw/*';
/** The S3 statements a Bedrock video call needs: Bedrock writes the clip as the caller; the adapter lists where it landed. */
function rawClipStatements(s: Synthesized, fn: CfnResource): Statement[] {
  return statementsOf(s, fn).filter((statement) => statement.resources.some((resource) => resource.endsWith(`/${RAW_CLIPS}`)) || statement.condition);
}

const foundationModels = (region: string, models: string[]) => models.map((model) => `bedrock:InvokeModel arn:\${AWS::Partition}:bedrock:${region}::foundation-model/${model}`);
const profiles = (region: string, models: string[]) =>
  models.map((model) => `bedrock:InvokeModel arn:\${AWS::Partition}:bedrock:${region}:\${AWS::AccountId}:inference-profile/us.${model}`);
const stabilityGrants = (region: string, models: string[]) => [...profiles(region, models), ...PROFILE_REGIONS.flatMap((r) => foundationModels(r, models))];
const lumaGrants = (region: string) => [
  ...foundationModels(region, ['luma.ray-v2:0']),
  ...['bedrock:GetAsyncInvoke', 'bedrock:StartAsyncInvoke'].map((action) => `${action} arn:\${AWS::Partition}:bedrock:${region}:\${AWS::AccountId}:async-invoke/*`),
];
const FASHN_GRANT = 'secretsmanager:GetSecretValue arn:${AWS::Partition}:secretsmanager:${AWS::Region}:${AWS::AccountId}:secret:modelloop/fashn-api-key-??????';

let cloud: Synthesized;
let editOnly: Synthesized;
let videoOnly: Synthesized;
let local: Synthesized;
beforeAll(() => {
  // cdk-nag runs on each: an unacknowledged finding fails the synthesis (and is listed by the test below).
  cloud = synthModelLoop({ context: { ...BEDROCK_FASHN, bedrockRegion: 'us-west-2', fashnOutputHosts: 'cdn.example.com' } });
  editOnly = synthModelLoop({ context: { ...ALL_LOCAL, editProvider: 'bedrock' } });
  videoOnly = synthModelLoop({ context: { ...ALL_LOCAL, ...VIDEO_PRICES, videoProvider: 'bedrock' } });
  local = synthModelLoop({ context: ALL_LOCAL });
}, 900_000);
afterAll(() => [cloud, editOnly, videoOnly, local].forEach((s) => s?.dispose()));

/** 'action resource condition' for each AWS Marketplace permission of a function (CDK merges statements that share a resource). */
function marketplaceGrants(s: Synthesized, fn: CfnResource): string[] {
  return statementsOf(s, fn)
    .flatMap((statement) =>
      statement.actions
        .filter((action) => action.startsWith('aws-marketplace:'))
        .flatMap((action) => statement.resources.map((resource) => `${action} ${resource} ${JSON.stringify(statement.condition ?? null)}`)),
    )
    .sort();
}

/** Synthesizes with the stack in `region` (as `cdk deploy` does from the profile's region). */
function synthIn(region: string, context: Record<string, unknown>): Synthesized {
  const previous = process.env.CDK_DEFAULT_REGION;
  process.env.CDK_DEFAULT_REGION = region;
  try {
    return synthModelLoop({ context, nag: false });
  } finally {
    if (previous === undefined) delete process.env.CDK_DEFAULT_REGION;
    else process.env.CDK_DEFAULT_REGION = previous;
  }
}

describe('AI providers in the cloud', () => {
  it('are declared by the tasks whose handlers call getProviders', () => {
    const declared = Object.fromEntries(tasks.filter(([, , task]) => task.providers?.length).map(([name, , task]) => [name, task.providers]));
    expect(declared).toEqual({
      'batch.MakePhoto': ['onModelImage'],
      'generation.Process': ['onModelImage', 'edit', 'upscale'],
      'generation.Upscale': ['upscale'],
      'video.StartClip': ['video'],
      'video.CheckClip': ['video'],
    });
  });

  it('grant exactly what the cloud adapters call: FASHN key, Stability profiles and models, Luma Ray2', () => {
    expect(providerGrants(cloud, functionOf(cloud, 'generation.Process')[1])).toEqual(
      [FASHN_GRANT, ...stabilityGrants('us-west-2', [...EDIT_MODELS, ...UPSCALE_MODELS])].sort(),
    );
    const results = cloud.stack.getLogicalId(cloud.stack.storage.buckets.results.node.defaultChild as CfnElement);
    for (const task of ['video.StartClip', 'video.CheckClip']) {
      const [, fn] = functionOf(cloud, task);
      expect(providerGrants(cloud, fn), task).toEqual(lumaGrants('us-west-2').sort());
      expect(rawClipStatements(cloud, fn), task).toEqual([
        { actions: ['s3:PutObject'], resources: [`\${${results}.Arn}/${RAW_CLIPS}`], condition: undefined },
        { actions: ['s3:ListBucket'], resources: [`\${${results}.Arn}`], condition: { StringLike: { 's3:prefix': [RAW_CLIPS] } } },
      ]);
    }
    // A batch photo is an on-model picture: only the FASHN key.
    expect(providerGrants(cloud, functionOf(cloud, 'batch.MakePhoto')[1])).toEqual([FASHN_GRANT]);
    // The upscale task (the one that carries the ESRGAN weights) gets the upscale models only.
    expect(providerGrants(cloud, functionOf(cloud, 'generation.Upscale')[1])).toEqual(stabilityGrants('us-west-2', UPSCALE_MODELS).sort());
    const providerTasks = ['generation.Process', 'generation.Upscale', 'batch.MakePhoto', 'video.StartClip', 'video.CheckClip'];
    // The daily model check asks about every configured model (GetFoundationModel, never an invocation) with the keys.
    const modelCheck = resourcesOfType(cloud.json, 'AWS::Lambda::Function').filter(([id]) => id.startsWith('ModelCheck'));
    expect(modelCheck).toHaveLength(1);
    expect(providerGrants(cloud, modelCheck[0]![1]).every((grant) => grant.startsWith('bedrock:GetFoundationModel ') || grant === FASHN_GRANT), 'the model check only looks models up').toBe(true);
    expect(providerGrants(cloud, modelCheck[0]![1])).toContain(FASHN_GRANT);
    for (const [id, fn] of resourcesOfType(cloud.json, 'AWS::Lambda::Function')) {
      if (providerTasks.some((task) => cdkPath(fn).endsWith(tasks.find(([name]) => name === task)![1]))) continue;
      if (id.startsWith('ModelCheck')) continue;
      expect(providerGrants(cloud, fn), `${id} calls no provider`).toEqual([]);
    }
  });

  it('grant only the selected cloud adapters: edit on Bedrock alone gets the edit models', () => {
    expect(providerGrants(editOnly, functionOf(editOnly, 'generation.Process')[1])).toEqual(stabilityGrants('${AWS::Region}', EDIT_MODELS).sort());
    for (const task of ['video.StartClip', 'video.CheckClip']) {
      const [, fn] = functionOf(editOnly, task);
      expect(providerGrants(editOnly, fn), task).toEqual([]);
      expect(rawClipStatements(editOnly, fn), task).toEqual([]);
    }
  });

  it('grant nothing when every port is local', () => {
    const actions = resourcesOfType(local.json, 'AWS::IAM::Policy').flatMap(([, policy]) =>
      (policy.Properties!.PolicyDocument.Statement as { Action: string | string[] }[]).flatMap((statement) => [statement.Action].flat()),
    );
    const providerActions = resourcesOfType(local.json, 'AWS::IAM::Policy').flatMap(([, policy]) =>
      (policy.Properties!.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
        // The API keys' pepper is a secret of ours, read whatever the providers are.
        .filter((statement) => !JSON.stringify(statement.Resource).includes('ApiKeyPepper'))
        .flatMap((statement) => [statement.Action].flat()),
    );
    expect(actions.length).toBeGreaterThan(0);
    expect(providerActions.filter((action) => /^(bedrock|secretsmanager):/.test(action))).toEqual([]);
    for (const [id, fn] of resourcesOfType(local.json, 'AWS::Lambda::Function')) {
      expect(Object.keys(fn.Properties!.Environment?.Variables ?? {}).filter((name) => PROVIDER_ENV.includes(name)), id).toEqual([]);
    }
  });

  it('pass the adapters\' settings to the provider tasks only; the Bedrock region defaults to the stack\'s', () => {
    for (const [name, path, task] of tasks) {
      const fn = resourcesOfType(cloud.json, 'AWS::Lambda::Function').find(([, resource]) => cdkPath(resource).endsWith(path))![1];
      const variables = fn.Properties!.Environment.Variables as Record<string, unknown>;
      if (task.providers?.length) {
        expect(variables, name).toMatchObject({
          BEDROCK_REGION: 'us-west-2',
          FASHN_API_URL: 'https://api.fashn.ai',
          FASHN_API_KEY_SECRET: 'modelloop/fashn-api-key',
          FASHN_OUTPUT_HOSTS: 'cdn.example.com',
        });
      } else {
        expect(Object.keys(variables).filter((variable) => PROVIDER_ENV.includes(variable)), name).toEqual([]);
      }
    }
    const variables = functionOf(editOnly, 'generation.Process')[1].Properties!.Environment.Variables as Record<string, unknown>;
    expect(variables.BEDROCK_REGION).toEqual({ Ref: 'AWS::Region' });
    expect(variables.FASHN_API_URL).toBeUndefined();
  });

  it('let the calling roles subscribe the account to the Marketplace models they call, Luma alone by its product id', () => {
    const manage = ['aws-marketplace:Unsubscribe * null', 'aws-marketplace:ViewSubscriptions * null'];
    const subscribeAny = 'aws-marketplace:Subscribe * null';
    const subscribeLuma = `aws-marketplace:Subscribe * ${JSON.stringify({ 'ForAnyValue:StringEquals': { 'aws-marketplace:ProductId': ['prod-bi33bxqeqavl6'] } })}`;
    for (const task of ['video.StartClip', 'video.CheckClip']) {
      expect(marketplaceGrants(videoOnly, functionOf(videoOnly, task)[1]), task).toEqual([subscribeLuma, ...manage].sort());
    }
    // The Stability model cards publish no product id.
    expect(marketplaceGrants(editOnly, functionOf(editOnly, 'generation.Process')[1])).toEqual([subscribeAny, ...manage].sort());
    expect(marketplaceGrants(cloud, functionOf(cloud, 'generation.Process')[1])).toEqual([subscribeAny, ...manage].sort());
    // FASHN is no Marketplace model; nothing local subscribes to anything.
    expect(marketplaceGrants(cloud, functionOf(cloud, 'batch.MakePhoto')[1])).toEqual([]);
    expect(marketplaceGrants(local, functionOf(local, 'generation.Process')[1])).toEqual([]);
  });

  it('refuse video on Bedrock outside Luma Ray2\'s region, at synth when the region is known and at deploy otherwise', () => {
    const lumaRegion = /Luma Ray2, which Amazon Bedrock offers in us-west-2 only.*results bucket/;
    expect(() => synthModelLoop({ context: { ...ALL_LOCAL, ...VIDEO_PRICES, videoProvider: 'bedrock', bedrockRegion: 'us-east-1' } })).toThrow(lumaRegion);
    // The results bucket is in the stack's region: Bedrock in us-west-2 cannot write there from another region.
    expect(() => synthIn('eu-west-1', { ...ALL_LOCAL, ...VIDEO_PRICES, videoProvider: 'bedrock', bedrockRegion: 'us-west-2' })).toThrow(/got region eu-west-1/);
    expect(() => synthIn('us-east-1', { ...ALL_LOCAL, ...VIDEO_PRICES, videoProvider: 'bedrock' })).toThrow(/got region us-east-1/);
    synthIn('us-west-2', { ...ALL_LOCAL, ...VIDEO_PRICES, videoProvider: 'bedrock' }).dispose();
    synthIn('eu-west-1', ALL_LOCAL).dispose();
    // An environment-agnostic template refuses the deploy itself, before anything is created.
    const rules = Object.values((videoOnly.json as { Rules?: Record<string, { Assertions: unknown[] }> }).Rules ?? {});
    expect(rules.flatMap((rule) => rule.Assertions)).toContainEqual({
      Assert: { 'Fn::Contains': [['us-west-2'], { Ref: 'AWS::Region' }] },
      AssertDescription: expect.stringMatching(lumaRegion),
    });
    expect(JSON.stringify((editOnly.json as { Rules?: unknown }).Rules ?? {})).not.toContain('Luma');
  }, 600_000);

  it('give video on FASHN the API key and the raw-clip folders to store finished clips in, and nothing of Bedrock', () => {
    const fashnVideo = synthModelLoop({ context: { ...ALL_LOCAL, ...FASHN, ...VIDEO_PRICES, videoProvider: 'fashn' } });
    try {
      const results = fashnVideo.stack.getLogicalId(fashnVideo.stack.storage.buckets.results.node.defaultChild as CfnElement);
      for (const task of ['video.StartClip', 'video.CheckClip']) {
        const [, fn] = functionOf(fashnVideo, task);
        expect(providerGrants(fashnVideo, fn), task).toEqual([FASHN_GRANT]);
        expect(rawClipStatements(fashnVideo, fn), task).toEqual([{ actions: ['s3:PutObject'], resources: [`\${${results}.Arn}/${RAW_CLIPS}`], condition: undefined }]);
        expect(marketplaceGrants(fashnVideo, fn), task).toEqual([]);
        expect(fn.Properties!.Environment.Variables, task).toMatchObject({ PROVIDER_VIDEO: 'fashn', FASHN_API_URL: 'https://api.fashn.ai' });
      }
      expect(providerGrants(fashnVideo, functionOf(fashnVideo, 'generation.Process')[1])).toEqual([]);
      expect(JSON.stringify((fashnVideo.json as { Rules?: unknown }).Rules ?? {})).not.toContain('Luma');
      expect(nagFindings(fashnVideo.assembly.directory)).toEqual([]);
    } finally {
      fashnVideo.dispose();
    }
  }, 600_000);

  it('refuse at synth a configuration the functions would reject', () => {
    expect(() => synthModelLoop({ context: { ...BEDROCK_FASHN, bedrockRegion: 'eu-west-1' } })).toThrow(/us-east-1, us-east-2, us-west-2/);
    expect(() => synthModelLoop({ context: { ...BEDROCK_FASHN, fashnApiUrl: '' } })).toThrow(/fashnApiUrl and fashnApiKeySecretName are required/);
    expect(() => synthModelLoop({ context: { imageProvider: 'fashn' } })).toThrow(/fashnApiUrl and fashnApiKeySecretName are required/);
    expect(() => synthModelLoop({ context: { ...BEDROCK_FASHN, fashnApiUrl: 'http://api.example.com' } })).toThrow(/https:/);
    expect(() => synthModelLoop({ context: { editProvider: 'stability' } })).toThrow(/editProvider must be one of local, bedrock/);
  });
});

describe('ffmpeg in the cloud', () => {
  it('is a layer with static ffmpeg and ffprobe in /opt/bin, on the finalize and start-clip tasks only, on x86_64', () => {
    const layers = resourcesOfType(cloud.json, 'AWS::Lambda::LayerVersion').filter(([, resource]) => cdkPath(resource).includes('/MediaLayer/'));
    expect(layers).toHaveLength(1);
    const [layerId, layer] = layers[0]!;
    expect(layer.Properties!.CompatibleArchitectures).toEqual(['x86_64']);
    // The folder the layer's zip is made of (tests skip asset staging, so it is read where the asset points).
    const asset = cloud.stack.mediaLayer.layer.node.findChild('Code').node.findChild('Stage') as AssetStaging;
    for (const binary of ['ffmpeg', 'ffprobe']) {
      const { mode, size } = statSync(join(asset.sourcePath, 'bin', binary));
      expect(mode & 0o777, `${binary} executable by anyone`).toBe(0o755);
      expect(size, binary).toBeGreaterThan(10_000_000);
    }

    const media = new Set(['video.FinalizeOutput', 'video.StartClip']);
    expect(tasks.filter(([, , task]) => task.media).map(([name]) => name).sort()).toEqual([...media].sort());
    for (const [id, fn] of resourcesOfType(cloud.json, 'AWS::Lambda::Function')) {
      const task = tasks.find(([, path]) => cdkPath(fn).endsWith(path));
      const variables = fn.Properties!.Environment?.Variables ?? {};
      if (task && media.has(task[0])) {
        expect(fn.Properties!.Layers, task[0]).toEqual([{ Ref: layerId }]);
        expect(fn.Properties!.Architectures, task[0]).toEqual(['x86_64']);
        expect(variables, task[0]).toMatchObject({ FFMPEG_PATH: '/opt/bin/ffmpeg', FFPROBE_PATH: '/opt/bin/ffprobe' });
      } else {
        expect(JSON.stringify(fn.Properties!.Layers ?? []), id).not.toContain(layerId);
        expect(variables.FFMPEG_PATH, id).toBeUndefined();
      }
    }
    const finalize = functionOf(cloud, 'video.FinalizeOutput')[1].Properties!;
    expect([finalize.Timeout, finalize.MemorySize]).toEqual([600, 3008]);
  });
});

describe('cdk-nag', () => {
  it('finds nothing unacknowledged with cloud adapters, Bedrock alone or everything local', () => {
    for (const s of [cloud, editOnly, videoOnly, local]) expect(nagFindings(s.assembly.directory)).toEqual([]);
  });
});
