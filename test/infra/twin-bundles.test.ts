// The twin runs what deploys: its list of functions (lib/local/deployed-functions.ts) is the stack's, declaration for
// declaration, and the bundle it runs for each (lib/local/bundles.ts) is the asset `cdk synth` stages for it, file for
// file: the same index.mjs, byte for byte, and the same folders beside it (sharp's packages, esrgan/, segmentation/,
// faces/). So a file a deployed function lacks is lacking on the twin too (test/unit/lambda-runtime.test.ts shows the
// failure it makes, test/integration/batch.test.ts the packshot it changed).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { CfnElement } from 'aws-cdk-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FunctionSpec } from '../../lib/constructs/function-factory.js';
import { ensureBundles } from '../../lib/local/bundles.js';
import { deployedFunctions } from '../../lib/local/deployed-functions.js';
import { synthModelLoop, type CfnResource, type Synthesized } from './synth.js';

/** A declaration as both hosts build the function from it (the environment's values exist only in a deployed stack). */
const declaration = ({ environment: _environment, ...spec }: FunctionSpec) => JSON.stringify(spec, Object.keys(spec).sort());

/** Every file under a folder: its path, its size, and for built files (not copied from node_modules) its SHA-256. */
function contents(folder: string): [string, string][] {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    const name = relative(folder, path);
    files[name] = name.includes('node_modules/') ? `${statSync(path).size} bytes` : createHash('sha256').update(readFileSync(path)).digest('hex');
  }
  return Object.entries(files).sort(([a], [b]) => a.localeCompare(b));
}

let synthesized: Synthesized;
let deployed: { handler: string; spec: FunctionSpec; asset: string }[];

beforeAll(() => {
  // The bundled assembly the other infra tests share (test/infra/synth.ts).
  synthesized = synthModelLoop({ bundle: true });
  const resources = synthesized.json.Resources;
  const staged = readdirSync(synthesized.assembly.directory);
  const assetOf = (resource: CfnResource) => {
    const name = `asset.${String(resource.Properties!.Code.S3Key).replace(/\.zip$/, '')}`;
    return join(synthesized.assembly.directory, staged.find((entry) => entry === name || entry.startsWith(`${name}.`))!);
  };
  deployed = synthesized.stack.functions.created.map(({ handler, spec, fn }) => ({
    handler,
    spec,
    asset: assetOf(resources[synthesized.stack.getLogicalId(fn.node.defaultChild as CfnElement)]!),
  }));
});

describe('the twin runs what deploys', () => {
  it('runs the functions the stack creates, each from the declaration its construct gives the function factory', () => {
    expect(deployedFunctions().map((fn) => declaration(fn.spec)).sort()).toEqual(deployed.map((fn) => declaration(fn.spec)).sort());
  });

  it('runs each function from a bundle with the very files of its synthesized asset', async () => {
    const functions = deployedFunctions();
    const bundles = await ensureBundles(functions);
    const differing: string[] = [];
    for (const fn of functions) {
      const asset = deployed.find((one) => declaration(one.spec) === declaration(fn.spec))!.asset;
      if (JSON.stringify(contents(bundles.get(fn.name)!)) !== JSON.stringify(contents(asset))) differing.push(fn.name);
    }
    expect(differing).toEqual([]);
    // The batch's photo task carries the cutout network, as the generation workflow's Process does.
    expect(contents(bundles.get('batch-MakePhoto')!).map(([name]) => name)).toContain('segmentation/u2netp.onnx');
  }, 900_000);
});
