// sharp is a native module: esbuild can't put it in a bundle. A function whose bundle imports it, at load or by a
// dynamic import at first use (found by asking esbuild which bare imports stay outside the bundle, after tree
// shaking, so code a handler never reaches does not count) gets sharp's already-installed linux-x64 packages copied
// next to its bundle (node_modules/) and runs on x86_64 to match them. Nothing is downloaded: synth stays offline.
import { buildSync } from 'esbuild';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** sharp and what it loads at run time, in the layout node_modules/<name>. */
export const SHARP_PACKAGES = ['sharp', '@img/sharp-linux-x64', '@img/sharp-libvips-linux-x64', '@img/colour', 'detect-libc', 'semver'] as const;

/**
 * The preview engine's ESRGAN upscaler (TensorFlow.js, its WASM binary and the esrgan-slim weights), loaded at first
 * use only. Left out of every bundle: no function ships the weights yet, so a deployed preview engine upscales with
 * Lanczos (lambdas/providers/local-engine/upscale.ts falls back when the import fails).
 */
export const ESRGAN_PACKAGES = ['upscaler', '@upscalerjs/esrgan-slim', '@tensorflow/tfjs', '@tensorflow/tfjs-backend-wasm'] as const;

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
