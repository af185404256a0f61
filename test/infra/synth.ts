// Synthesizes the ModelLoop app in-process, with the context of cdk.json plus overrides, as `cdk synth` would.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import type { CloudAssembly } from 'aws-cdk-lib/cx-api';
import { createModelLoopApp } from '../../lib/modelloop-app.js';
import type { ModelLoopStack } from '../../lib/modelloop-stack.js';

const cdkJson = JSON.parse(readFileSync(new URL('../../cdk.json', import.meta.url), 'utf8')) as {
  context: Record<string, unknown>;
};

export interface SynthOptions {
  context?: Record<string, unknown>;
  /** Run esbuild for every function (slow); otherwise asset bundling is skipped. */
  bundle?: boolean;
  /** Run the cdk-nag plugin (default); template tests turn it off so that they report their own failures. */
  nag?: boolean;
  /** Changes the stack before synthesis (to prove that a check can fail). */
  modify?: (stack: ModelLoopStack) => void;
}

export interface Synthesized {
  stack: ModelLoopStack;
  assembly: CloudAssembly;
  template: Template;
  /** The template as JSON, for lookups by logical id. */
  json: CfnTemplate;
  dispose(): void;
}

export interface CfnResource {
  Type: string;
  Properties?: Record<string, any>;
  Metadata?: Record<string, any>;
}
export interface CfnTemplate {
  Resources: Record<string, CfnResource>;
  Outputs?: Record<string, { Value: unknown }>;
}

export function synthModelLoop({ context = {}, bundle = false, nag = true, modify }: SynthOptions = {}): Synthesized {
  const outdir = mkdtempSync(join(tmpdir(), 'modelloop-cdk-'));
  const { app, stack } = createModelLoopApp({
    outdir,
    // Path metadata as the CLI asks for it; bundling skipped unless asked for.
    context: {
      'aws:cdk:enable-path-metadata': true,
      ...cdkJson.context,
      ...context,
      ...(bundle ? {} : { 'aws:cdk:bundling-stacks': [] }),
    },
  }, { nag });
  modify?.(stack);
  try {
    const assembly = app.synth();
    const json = assembly.getStackArtifact(stack.artifactId).template as CfnTemplate;
    return { stack, assembly, template: Template.fromJSON(json), json, dispose: () => rmSync(outdir, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(outdir, { recursive: true, force: true });
    throw error;
  }
}

/** Resources of a type, by logical id. */
export function resourcesOfType(json: CfnTemplate, type: string): [string, CfnResource][] {
  return Object.entries(json.Resources).filter(([, resource]) => resource.Type === type);
}

export function cdkPath(resource: CfnResource): string {
  return String(resource.Metadata?.['aws:cdk:path'] ?? '');
}
