// Synthesizes the ModelLoop app in-process, with the context of cdk.json plus overrides, as `cdk synth` would.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestedStack, type CfnElement, type Stack } from 'aws-cdk-lib';
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

// Synthesis is the slow part of the infra layer (a bundled one runs esbuild for every function), and most files ask
// for the same few assemblies. Within one test process (the infra project runs with isolate: false) an assembly is
// built once per set of options and shared read-only; its directories go when the process ends. An assembly whose
// stack is changed (`modify`) is never shared.
const shared = new Map<string, Synthesized>();
const sharedDirs: string[] = [];
process.once('exit', () => sharedDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

export function synthModelLoop(options: SynthOptions = {}): Synthesized {
  if (options.modify) return synthesize(options);
  // The environment the app reads (lib/modelloop-app.ts) is part of what was synthesized.
  const key = JSON.stringify([options.context ?? {}, options.bundle ?? false, options.nag ?? true, process.env.CDK_DEFAULT_REGION, process.env.CDK_DEFAULT_ACCOUNT]);
  let found = shared.get(key);
  if (!found) {
    const fresh = synthesize(options);
    sharedDirs.push(...fresh.directories);
    found = { ...fresh, dispose: () => undefined };
    shared.set(key, found);
  }
  return found;
}

function synthesize({ context = {}, bundle = false, nag = true, modify }: SynthOptions): Synthesized & { directories: string[] } {
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
    const json = withNestedStacks(assembly.directory, stack, assembly.getStackArtifact(stack.artifactId).template as CfnTemplate);
    return { stack, assembly, template: Template.fromJSON(json), json, dispose: removeDirs, directories: [outdir, webRoot] };
  } catch (error) {
    removeDirs();
    throw error;
  }
}

/**
 * The stack's template with the resources of its nested stacks (the HTTP API's routes, integrations and invoke
 * permissions; the operations' alarms and dashboard) added, each
 * reference to a nested stack's parameter replaced by what the parent passes it, so that tests read one template.
 * The nested stack resource itself stays; what CloudFormation counts against a stack's 500 is the parent alone.
 */
function withNestedStacks(directory: string, stack: Stack, template: CfnTemplate): CfnTemplate {
  const merged: CfnTemplate = { ...template, Resources: { ...template.Resources } };
  for (const nested of stack.node.findAll().filter((construct): construct is NestedStack => NestedStack.isNestedStack(construct) && construct.nestedStackParent === stack)) {
    const resource = template.Resources[stack.getLogicalId(nested.nestedStackResource as CfnElement)];
    const parameters = (resource?.Properties?.Parameters ?? {}) as Record<string, unknown>;
    const resolve = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(resolve);
      if (value && typeof value === 'object') {
        const ref = (value as { Ref?: unknown }).Ref;
        if (typeof ref === 'string' && ref in parameters && Object.keys(value).length === 1) return parameters[ref];
        return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolve(item)]));
      }
      return value;
    };
    const own = JSON.parse(readFileSync(join(directory, nested.templateFile), 'utf8')) as CfnTemplate;
    Object.assign(merged.Resources, withNestedStacks(directory, nested, { ...own, Resources: resolve(own.Resources) as CfnTemplate['Resources'] }).Resources);
  }
  return merged;
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
