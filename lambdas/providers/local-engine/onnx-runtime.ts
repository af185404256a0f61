// onnxruntime-node (MIT; version pinned in package.json, its Linux binaries in the npm tarball, no install script), the
// native runtime of the engine's two networks: the cutout (segmentation.ts) and ESRGAN (esrgan-model.ts). It is
// CommonJS with a native binding, so it is loaded by path at first use and no bundle references it: deployed, a
// function that runs a network carries the runtime in `<folder>/node_modules/` beside its index.mjs
// (lib/native-modules.ts, onnxRuntimeCommands); elsewhere (the twin, tests, benches) it is the installed package.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface OrtTensor {
  data: Float32Array;
  dims: readonly number[];
}
export interface OrtSession {
  inputNames: readonly string[];
  outputNames: readonly string[];
  run(feeds: Record<string, unknown>): Promise<Record<string, OrtTensor>>;
}
export interface Ort {
  InferenceSession: { create(model: Uint8Array, options?: Record<string, unknown>): Promise<OrtSession> };
  Tensor: new (type: 'float32', data: Float32Array, dims: number[]) => unknown;
}

/** The folder a deployed function carries beside its index.mjs, when it has it (else undefined). */
export function deployedAssetFolder(name: string, marker: string): string | undefined {
  const folder = join(dirname(fileURLToPath(import.meta.url)), name);
  return existsSync(join(folder, marker)) ? folder : undefined;
}

/** onnxruntime-node: from the deployed folder `folder` when there is one, else the installed package. */
export function loadOnnxRuntime(folder: string | undefined): Ort {
  const require = createRequire(import.meta.url);
  return require(folder ? join(folder, 'node_modules', 'onnxruntime-node') : 'onnxruntime-node') as Ort;
}
