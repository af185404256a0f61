// Each function ships only the native payloads it runs, checked on the assets `cdk synth` writes: sharp (libvips,
// about 21 MB) only beside the functions that decode pictures, the ffmpeg layer only on the video tasks that run it,
// arm64 for everything else, and bundles within the lean budget (MAX_LEAN_BUNDLE_BYTES, 500 KB) for the functions without native modules (1 MB for the three
// payment functions, which carry Stripe's official library: lib/bundle-budget.ts).
import { buildSync } from 'esbuild';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CfnElement } from 'aws-cdk-lib';
import { bundleBudgetOf, ESRGAN_HANDLERS, MAX_ESRGAN_FOLDER_BYTES, MAX_SHOPIFY_LIBRARY_BUNDLE_BYTES, MAX_STRIPE_LIBRARY_BUNDLE_BYTES, SHOPIFY_LIBRARY_HANDLERS, STRIPE_LIBRARY_HANDLERS } from '../../lib/bundle-budget.js';
import { ESRGAN_ASSET_FOLDER } from '../../lambdas/providers/local-engine/esrgan-model.js';
import { FACE_ASSET_FOLDER, FACE_DETECTOR_FILE, openFaceDetector } from '../../lambdas/domain/images/faces.js';
import { noPerson, onePerson, twoPeople } from '../fixtures/faces.js';
import { ESM_REQUIRE_BANNER, SHARP_PACKAGES } from '../../lib/native-modules.js';
import { synthModelLoop, type CfnResource, type Synthesized } from './synth.js';

/** The only functions that may carry sharp: they decode pictures. */
const SHARP_ALLOWED = [
  // A clothing photo's check makes its thumbnail; items stored before thumbnails get theirs from the backfill route.
  'register-clothing-item',
  'make-clothing-thumbnails',
  // A saved model's uploaded portrait is checked like a clothing photo (full decode), when made and when replaced.
  'create-model',
  'update-model',
  'generate-ai-image',
  'edit-ai-image',
  'upscale-ai-image',
  'generate-packshot',
  // The cutout brush: the packshot's photo and its mask as the seller's canvas shows them, and the render again.
  'get-packshot-cutout',
  'refine-packshot-cutout',
  'generate-video',
  'generation-process',
  'generation-upscale',
  'video-start-clip',
  'video-finalize-output',
  // A product-link import checks (and previews) the fetched picture exactly like an upload.
  'create-import',
  'select-import-image',
];
/** Of those, the ones that must carry it: they check uploads or inline images, make pictures or key a clip. */
const MUST_DECODE = SHARP_ALLOWED.filter((handler) => handler !== 'video-finalize-output');
/** The functions that run ffmpeg (the media layer). */
const FFMPEG = ['video-start-clip', 'video-finalize-output'];

const HANDLERS = readdirSync(resolve(import.meta.dirname, '../../lambdas/handlers')).map((file) => file.replace(/\.ts$/, ''));
const CONTRACTS_DIR = resolve(import.meta.dirname, '../../lambdas/contracts');

interface Packaged {
  handler: string;
  architecture: string;
  bytes: number;
  /** The official Stripe library is in the bundle (its User-Agent, `Stripe/v1 NodeBindings/`). */
  stripeLibrary: boolean;
  /** Shopify's official library is in the bundle (its User-Agent's name, `Shopify API Library`). */
  shopifyLibrary: boolean;
  /** Module specifiers the bundle imports, statically or at run time, other than Node's built-ins. */
  packages: string[];
  sharpPackages: string[];
  ffmpeg: boolean;
  /** The asset's directory (index.mjs and what is copied beside it). */
  directory: string;
  /** Bytes of the ESRGAN folder beside the bundle (weights, onnxruntime), 0 without one. */
  esrganBytes: number;
}

/** Bytes of the files under a directory. */
function folderBytes(directory: string): number {
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

let synthesized: Synthesized;
let functions: Packaged[];

beforeAll(() => {
  // The same bundled assembly the cdk-nag test checks (shared within the run: test/infra/synth.ts).
  synthesized = synthModelLoop({ bundle: true });
  const resources = synthesized.json.Resources;
  // A function's code and a layer's content are staged in the assembly as asset.<hash>[.n], <hash> the zip's name in S3.
  const staged = readdirSync(synthesized.assembly.directory);
  const assetDirectory = (resource: CfnResource | undefined) => {
    const key = (resource?.Properties?.Code ?? resource?.Properties?.Content)?.S3Key;
    if (typeof key !== 'string') return undefined;
    const name = `asset.${key.replace(/\.zip$/, '')}`;
    const found = staged.find((entry) => entry === name || entry.startsWith(`${name}.`));
    return found ? join(synthesized.assembly.directory, found) : undefined;
  };
  functions = synthesized.stack.functions.created.map(({ handler, fn: construct }): Packaged => {
    const fn = resources[synthesized.stack.getLogicalId(construct.node.defaultChild as CfnElement)]!;
    const directory = assetDirectory(fn)!;
    const bundle = readFileSync(join(directory, 'index.mjs'), 'utf8');
    // A specifier is one word-like token: "from" and a quote also occur inside bundled strings (a library's messages).
    const specifiers = [...bundle.matchAll(/\bfrom\s*["']([^"'\s+(){},]+)["']|\bimport\s*\(\s*["']([^"'\s+(){},]+)["']\s*\)/g)].map(
      (match) => match[1] ?? match[2]!,
    );
    const layers = (fn.Properties!.Layers ?? []) as { Ref?: string }[];
    return {
      handler,
      architecture: fn.Properties!.Architectures?.[0] ?? 'x86_64',
      bytes: Buffer.byteLength(bundle),
      stripeLibrary: bundle.includes('NodeBindings/'),
      shopifyLibrary: bundle.includes('Shopify API Library'),
      packages: [...new Set(specifiers.filter((specifier) => !isBuiltin(specifier)))],
      sharpPackages: SHARP_PACKAGES.filter((name) => existsSync(join(directory, 'node_modules', name, 'package.json'))),
      directory,
      esrganBytes: existsSync(join(directory, ESRGAN_ASSET_FOLDER)) ? folderBytes(join(directory, ESRGAN_ASSET_FOLDER)) : 0,
      ffmpeg: layers.some((layer) => {
        const layerAsset = layer.Ref ? assetDirectory(resources[layer.Ref]) : undefined;
        return layerAsset !== undefined && existsSync(join(layerAsset, 'bin', 'ffmpeg'));
      }),
    };
  });
});
afterAll(() => synthesized?.dispose());

const carriesSharp = (fn: Packaged) => fn.sharpPackages.length > 0;
const native = (fn: Packaged) => carriesSharp(fn) || fn.ffmpeg;

describe('lean functions, as synthesized', () => {
  it('finds a bundle for every handler', () => {
    // A handler may serve several functions (generation-process is also the batch workflow's photo task).
    expect([...new Set(functions.map((fn) => fn.handler))].sort()).toEqual([...HANDLERS].sort());
  });

  it('ship sharp only beside the functions that decode pictures, and there whole', () => {
    const carriers = functions.filter(carriesSharp).map((fn) => fn.handler);
    expect(carriers.filter((handler) => !SHARP_ALLOWED.includes(handler)), 'functions that must not carry sharp').toEqual([]);
    expect(MUST_DECODE.filter((handler) => !carriers.includes(handler)), 'decoding functions without sharp').toEqual([]);
    for (const fn of functions) {
      // A bundle that can import sharp (at load or at first use) has all of its packages beside it; one that can't has none.
      const importsSharp = fn.packages.includes('sharp');
      expect(fn.sharpPackages, fn.handler).toEqual(importsSharp ? [...SHARP_PACKAGES] : []);
    }
  });

  // The preview engine's networks (ESRGAN's weights, onnxruntime-node) are in no index.mjs: they are loaded by path
  // from the folder the function that runs them carries.
  it('import nothing from outside the bundle but Node built-ins and sharp', () => {
    for (const fn of functions) expect(fn.packages.filter((name) => name !== 'sharp'), fn.handler).toEqual([]);
  });

  it('carry the ESRGAN weights and onnxruntime in the upscale task function only, within its budget', () => {
    const carriers = functions.filter((fn) => fn.esrganBytes > 0);
    expect(carriers.map((fn) => fn.handler).sort()).toEqual([...ESRGAN_HANDLERS].sort());
    for (const fn of carriers) {
      expect(fn.esrganBytes, fn.handler).toBeLessThanOrEqual(MAX_ESRGAN_FOLDER_BYTES);
      for (const file of ['models/x2/model.json', 'node_modules/onnxruntime-node/package.json', 'node_modules/onnxruntime-common/package.json']) {
        expect(existsSync(join(fn.directory, ESRGAN_ASSET_FOLDER, file)), `${fn.handler}: ${file}`).toBe(true);
      }
    }
  });

  // Deployed, ESRGAN loads onnxruntime and the weights from the folder beside the bundle: the engine's ESRGAN module,
  // bundled as the function's own code is, runs from a copy of that folder outside the project (so nothing resolves
  // from the project's node_modules) on a tiny picture.
  it("the upscale function's folder enlarges a picture with the runtime and weights it carries", async () => {
    const [fn] = functions.filter((candidate) => candidate.esrganBytes > 0);
    const copy = mkdtempSync(join(tmpdir(), 'modelloop-esrgan-asset-'));
    try {
      cpSync(join(fn!.directory, ESRGAN_ASSET_FOLDER), join(copy, ESRGAN_ASSET_FOLDER), { recursive: true });
      buildSync({
        entryPoints: [resolve(import.meta.dirname, '../../lambdas/providers/local-engine/esrgan.ts')],
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node22',
        banner: { js: ESM_REQUIRE_BANNER },
        outfile: join(copy, 'index.mjs'),
        logLevel: 'silent',
      });
      const { esrganUpscale } = (await import(pathToFileURL(join(copy, 'index.mjs')).href)) as typeof import('../../lambdas/providers/local-engine/esrgan.js');
      const data = Buffer.from(Uint8Array.from({ length: 12 * 8 * 4 }, (_, i) => (i % 4 === 3 ? 255 : (i * 37) % 256)));
      const enlarged = await esrganUpscale({ data, width: 12, height: 8 }, 2, { threads: 1 });
      expect({ width: enlarged.width, height: enlarged.height, bytes: enlarged.data.length }).toEqual({ width: 24, height: 16, bytes: 24 * 16 * 4 });
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }, 120_000);

  // A saved model's uploaded portrait must show one face: the two portrait functions carry face-api's detector
  // (bundled with TensorFlow.js), the WASM binaries and the weights, and count faces from a copy outside the project.
  it('carry the face detector in the portrait functions only, and it counts faces with the weights it carries', async () => {
    const carriers = functions.filter((fn) => existsSync(join(fn.directory, FACE_ASSET_FOLDER)));
    expect(carriers.map((fn) => fn.handler).sort()).toEqual(['create-model', 'update-model']);
    const copy = mkdtempSync(join(tmpdir(), 'modelloop-faces-asset-'));
    try {
      cpSync(join(carriers[0]!.directory, FACE_ASSET_FOLDER), join(copy, FACE_ASSET_FOLDER), { recursive: true });
      const folder = join(copy, FACE_ASSET_FOLDER);
      const count = await openFaceDetector({ detector: join(folder, FACE_DETECTOR_FILE), wasm: join(folder, 'wasm'), model: folder });
      expect([await count(await noPerson()), await count(await onePerson()), await count(await twoPeople())]).toEqual([0, 1, 2]);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }, 120_000);

  it('give the ffmpeg layer to the video tasks that run ffmpeg only', () => {
    expect(functions.filter((fn) => fn.ffmpeg).map((fn) => fn.handler).sort()).toEqual([...FFMPEG].sort());
  });

  it('run on arm64 unless they carry a linux-x64 native payload', () => {
    for (const fn of functions) expect(fn.architecture, fn.handler).toBe(native(fn) ? 'x86_64' : 'arm64');
    const mayCarry = functions.filter((fn) => SHARP_ALLOWED.includes(fn.handler) || FFMPEG.includes(fn.handler)).length;
    expect(functions.filter((fn) => !native(fn)).length).toBeGreaterThanOrEqual(functions.length - mayCarry);
  });

  it('keep every bundle without native modules within the lean budget (500 KB) minified, the Stripe and Shopify functions within 1 MB', () => {
    const oversized = functions.filter((fn) => !native(fn) && fn.bytes > bundleBudgetOf(fn.handler));
    expect(oversized.map((fn) => `${fn.handler}: ${(fn.bytes / 1024).toFixed(0)} KB`)).toEqual([]);
  });

  it("carry Stripe's official library in exactly the checkout, refund and Stripe webhook functions", () => {
    const carriers = functions.filter((fn) => fn.stripeLibrary);
    expect(carriers.map((fn) => fn.handler).sort()).toEqual([...STRIPE_LIBRARY_HANDLERS].sort());
    for (const fn of carriers) expect(fn.bytes, fn.handler).toBeLessThanOrEqual(MAX_STRIPE_LIBRARY_BUNDLE_BYTES);
  });

  it("carry Shopify's official library in exactly the functions that talk to Shopify", () => {
    const carriers = functions.filter((fn) => fn.shopifyLibrary);
    expect(carriers.map((fn) => fn.handler).sort()).toEqual([...SHOPIFY_LIBRARY_HANDLERS].sort());
    for (const fn of carriers) expect(fn.bytes, fn.handler).toBeLessThanOrEqual(MAX_SHOPIFY_LIBRARY_BUNDLE_BYTES);
  });
});

// Building a zod schema runs code, so a bundler keeps every schema of a module it includes unless the schema is marked
// pure (`/* @__PURE__ */ (() => z.object(…))()`). Unmarked, list-jobs built 551 zod objects at each cold start for the
// dozens of schemas of contracts/api, video and generations it never reads (about 13 ms of its load).
describe('the contracts, as bundled', () => {
  it.each(readdirSync(CONTRACTS_DIR).filter((file) => file.endsWith('.ts')))('%s builds none of its schemas in a bundle that reads none', (file) => {
    const { metafile } = buildSync({
      stdin: { contents: `import './${file.replace(/\.ts$/, '.js')}';`, resolveDir: CONTRACTS_DIR, loader: 'ts' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      write: false,
      outfile: 'contracts-probe.mjs',
      metafile: true,
      logLevel: 'silent',
    });
    // One schema left to build would bring zod (about 90 KB) into the bundle.
    const [output] = Object.values(metafile.outputs);
    const zodInOutput = Object.entries(output!.inputs).filter(([input, { bytesInOutput }]) => input.includes('node_modules/zod/') && bytesInOutput > 0);
    expect(zodInOutput.map(([input]) => input)).toEqual([]);
  });
});
