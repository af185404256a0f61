// Synthesizes the ModelLoop app in-process, with the context of cdk.json plus overrides, as `cdk synth` would.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  // A stand-in for the web build (webRoot), so that infra tests do not depend on `npm run build:web`.
  const webRoot = mkdtempSync(join(tmpdir(), 'modelloop-web-'));
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><title>ModelLoop</title>');
  writeFileSync(join(webRoot, 'app.html'), '<!doctype html><title>ModelLoop</title>');
  const removeDirs = () => [outdir, webRoot].forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  const { app, stack } = createModelLoopApp({
    outdir,
    // Path metadata as the CLI asks for it; bundling skipped unless asked for.
    context: {
      'aws:cdk:enable-path-metadata': true,
      webRoot,
      ...cdkJson.context,
      ...context,
      ...(bundle ? {} : { 'aws:cdk:bundling-stacks': [] }),
    },
  }, { nag });
  modify?.(stack);
  try {
    const assembly = app.synth();
    const json = assembly.getStackArtifact(stack.artifactId).template as CfnTemplate;
    return { stack, assembly, template: Template.fromJSON(json), json, dispose: removeDirs };
  } catch (error) {
    removeDirs();
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

interface ValidationReport {
  pluginReports: {
    pluginName: string;
    violations: { ruleName: string; violatingConstructs: { constructPath: string }[] }[];
  }[];
}

/**
 * Every finding of the validation plugins (cdk-nag) that was not acknowledged, as 'rule at construct path', from the
 * report in an assembly directory (written also when synthesis fails on findings).
 */
export function nagFindings(assemblyDirectory: string): string[] {
  const report = JSON.parse(readFileSync(join(assemblyDirectory, 'validation-report.json'), 'utf8')) as ValidationReport;
  return report.pluginReports.flatMap((plugin) =>
    plugin.violations.flatMap((violation) =>
      violation.violatingConstructs.map((construct) => `${violation.ruleName} at ${construct.constructPath}`),
    ),
  );
}
