// The bundles the twin runs: each function's, built exactly as it deploys. The code is the function factory's
// (functionCode: the NodejsFunction bundling options and the asset steps), the esbuild command CDK's own bundling class
// makes of it (aws-cdk-lib's Bundling, the one `cdk synth` runs), and the same asset folders (sharp's packages,
// esrgan/, segmentation/, faces/), hard-linked from node_modules instead of copied, so 80 bundles hold one copy.
//
// Bundles live outside the project, in the OS's temporary folder (MODELLOOP_BUNDLE_CACHE to choose another): Node
// resolves a bare import by walking up to a node_modules folder, so a bundle inside the project would quietly find the
// packages it lacks, which Lambda would not. There, a function is found by a key of what shapes its bundle (its
// declaration's code settings and the bundler's own files, package-lock.json included), and each build of it carries
// the list of its inputs with their hashes (esbuild's metafile): it is reused while every input is unchanged. A build
// is made in a folder of its own and renamed into place, so twins that start together (test files) never see half
// of one; the last few builds of each function are kept.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Metafile } from 'esbuild';
import type { CodeSpec } from '../constructs/function-factory.js';
import type { AssetStep } from '../native-modules.js';
import type { DeployedFunction } from './deployed-functions.js';

export const BUNDLE_CACHE_ENV = 'MODELLOOP_BUNDLE_CACHE';
const PROJECT_ROOT = resolve(import.meta.dirname, '../..');
/** The files that make every bundle: how bundles are built, and what is installed. */
const BUNDLER_FILES = ['lib/constructs/function-factory.ts', 'lib/native-modules.ts', 'lib/local/bundles.ts', 'package.json', 'package-lock.json', 'tsconfig.json'];
/** Builds kept per function (older ones go once they have not been used for an hour). */
const KEEP_BUILDS = 3;
const STALE_MS = 60 * 60_000;
/** Builds at once: each esbuild uses every core; a few overlap its waits. */
const BUILD_CONCURRENCY = 3;

export function bundleCacheDirectory(env: NodeJS.ProcessEnv = process.env): string {
  return env[BUNDLE_CACHE_ENV] || join(tmpdir(), 'modelloop-bundles');
}

/** A build's inputs: project-relative path → [size, mtime, SHA-256]. */
interface Manifest {
  function: string;
  builtAt: string;
  inputs: Record<string, [number, number, string]>;
}

export interface EnsureBundlesOptions {
  /** Lines saying what is built, with progress (a cold start takes a while). */
  progress?: (line: string) => void;
  cacheDirectory?: string;
}

/** Each function's bundle folder, by its twin name: from the cache when its inputs are unchanged, built otherwise. */
export async function ensureBundles(functions: readonly DeployedFunction[], options: EnsureBundlesOptions = {}): Promise<Map<string, string>> {
  const started = performance.now();
  const cache = options.cacheDirectory ?? bundleCacheDirectory();
  const progress = options.progress ?? (() => undefined);
  mkdirSync(cache, { recursive: true });
  const version = bundlerVersion();
  const hashes = new FileHashes();
  const bundles = new Map<string, string>();
  const missing = new Map<string, DeployedFunction[]>();
  for (const fn of functions) {
    const keyFolder = join(cache, `${fn.spec.handler}-${codeKey(version, fn.spec)}`);
    const cached = cachedBuild(keyFolder, hashes);
    if (cached) bundles.set(fn.name, cached);
    else missing.set(keyFolder, [...(missing.get(keyFolder) ?? []), fn]);
  }
  if (missing.size) {
    progress(`Building ${missing.size} of ${functions.length} function bundles as they deploy (the first start, or their code changed); later starts reuse them from ${cache}`);
    let done = 0;
    await eachConcurrently([...missing], BUILD_CONCURRENCY, async ([keyFolder, sharing]) => {
      const buildStarted = performance.now();
      const folder = await build(sharing[0]!, keyFolder, hashes);
      for (const fn of sharing) bundles.set(fn.name, folder);
      done += 1;
      progress(`  [${done}/${missing.size}] ${sharing.map((fn) => fn.name).join(', ')} (${((performance.now() - buildStarted) / 1000).toFixed(1)} s)`);
    });
  }
  progress(`Function bundles: ${functions.length - [...missing.values()].flat().length} from the cache, ${missing.size ? `${[...missing.values()].flat().length} built, ` : ''}in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  for (const keyFolder of new Set([...bundles.values()].map((folder) => dirname(folder)))) prune(keyFolder);
  return bundles;
}

/** What every bundle depends on besides its own inputs. */
function bundlerVersion(): string {
  const hash = createHash('sha256').update(`${process.platform}-${process.arch}`);
  for (const file of BUNDLER_FILES) hash.update(file).update(readFileSync(join(PROJECT_ROOT, file)));
  return hash.digest('hex');
}

/** The part of a declaration its bundle depends on. */
function codeKey(version: string, spec: CodeSpec): string {
  const { handler, media, prelude, esrgan, segmentation, faces } = spec;
  return createHash('sha256').update(version).update(JSON.stringify({ handler, media, prelude, esrgan, segmentation, faces })).digest('hex').slice(0, 16);
}

/** SHA-256 of files, each read once per start. */
class FileHashes {
  readonly #known = new Map<string, string>();

  of(path: string): string {
    let hash = this.#known.get(path);
    if (!hash) {
      hash = createHash('sha256').update(readFileSync(path)).digest('hex');
      this.#known.set(path, hash);
    }
    return hash;
  }
}

/** The newest build in `keyFolder` whose inputs are all unchanged (same size and time, or else the same hash). */
function cachedBuild(keyFolder: string, hashes: FileHashes): string | undefined {
  if (!existsSync(keyFolder)) return undefined;
  const manifests = readdirSync(keyFolder)
    .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
    .map((name) => join(keyFolder, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  for (const file of manifests) {
    const folder = file.slice(0, -'.json'.length);
    if (!existsSync(join(folder, 'index.mjs'))) continue;
    const { inputs } = JSON.parse(readFileSync(file, 'utf8')) as Manifest;
    const unchanged = Object.entries(inputs).every(([path, [size, mtimeMs, sha256]]) => {
      const absolute = join(PROJECT_ROOT, path);
      if (!existsSync(absolute)) return false;
      const stat = statSync(absolute);
      return (stat.size === size && stat.mtimeMs === mtimeMs) || hashes.of(absolute) === sha256;
    });
    if (unchanged) {
      const now = new Date();
      utimesSync(file, now, now);
      return folder;
    }
  }
  return undefined;
}

/**
 * Builds one function's bundle into `keyFolder`: esbuild as CDK runs it, then the asset steps. CDK asks esbuild first
 * whether the handler imports sharp (importsSharp), then bundles with sharp's packages external or with none external;
 * here one esbuild run does both: the bundle made with them external is the very same file when the handler imports
 * none of them (an external that is never imported changes nothing), and its metafile answers the question.
 */
async function build(fn: DeployedFunction, keyFolder: string, hashes: FileHashes): Promise<string> {
  // CDK is loaded only when something is built: a start with every bundle cached never loads it.
  const [{ functionCode }, { ESBUILD_BINARY }, { Stack }] = await Promise.all([import('../constructs/function-factory.js'), import('../native-modules.js'), import('aws-cdk-lib')]);
  mkdirSync(keyFolder, { recursive: true });
  const building = mkdtempSync(join(keyFolder, '.building-'));
  const metafile = `${building}.meta.json`;
  try {
    const scope = new Stack();
    const withSharp = functionCode(fn.spec, true);
    await run([...cdkEsbuildCommand(scope, withSharp.props, building, ESBUILD_BINARY), `--metafile=${metafile}`], fn.name);
    const imported = new Set(Object.values(readMetafile(metafile).outputs).flatMap((output) => output.imports.filter((one) => one.external).map((one) => one.path)));
    let code = withSharp;
    if (!imported.has('sharp')) {
      code = functionCode(fn.spec, false);
      const externals = withSharp.props.bundling.externalModules ?? [];
      if (externals.some((name) => imported.has(name))) {
        rmSync(building, { recursive: true, force: true });
        mkdirSync(building);
        await run([...cdkEsbuildCommand(scope, code.props, building, ESBUILD_BINARY), `--metafile=${metafile}`], fn.name);
      }
    }
    for (const step of code.assets) await carryOut(step, building, ESBUILD_BINARY, fn.name);

    const { inputs } = readMetafile(metafile);
    const manifest: Manifest = { function: fn.name, builtAt: new Date().toISOString(), inputs: {} };
    for (const path of Object.keys(inputs).sort()) {
      const absolute = resolve(PROJECT_ROOT, path);
      if (!existsSync(absolute)) continue;
      const stat = statSync(absolute);
      manifest.inputs[relative(PROJECT_ROOT, absolute)] = [stat.size, stat.mtimeMs, hashes.of(absolute)];
    }
    const id = createHash('sha256').update(JSON.stringify(Object.entries(manifest.inputs).map(([path, [, , sha256]]) => [path, sha256]))).digest('hex').slice(0, 16);
    const folder = join(keyFolder, id);
    try {
      renameSync(building, folder);
    } catch (error) {
      // Another twin built the same inputs meanwhile: its folder is as good.
      if (!existsSync(join(folder, 'index.mjs'))) throw error;
      rmSync(building, { recursive: true, force: true });
    }
    const written = `${folder}.json.${process.pid}`;
    writeFileSync(written, JSON.stringify(manifest));
    renameSync(written, `${folder}.json`);
    return folder;
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    throw error;
  } finally {
    rmSync(metafile, { force: true });
  }
}

function readMetafile(file: string): Metafile {
  return JSON.parse(readFileSync(file, 'utf8')) as Metafile;
}

interface CdkBundlingStep {
  type: string;
  command?: string[];
}

/**
 * The esbuild command of CDK's NodejsFunction for these properties, from aws-cdk-lib's own Bundling class (the steps
 * its local bundling runs, less the asset hooks, which `carryOut` does): the same arguments `cdk synth` passes.
 */
function cdkEsbuildCommand(scope: object, props: Record<string, unknown> & { bundling: object }, output: string, esbuild: string): string[] {
  const require = createRequire(import.meta.url);
  const { Bundling } = require(join(dirname(require.resolve('aws-cdk-lib/aws-lambda-nodejs')), 'lib', 'bundling.js')) as {
    Bundling: new (scope: object, props: object) => {
      createBundlingSteps(scope: object, options: object): CdkBundlingStep[];
    };
  };
  const { bundling, entry, runtime, architecture, depsLockFilePath, projectRoot } = props;
  const steps = new Bundling(scope, { ...bundling, entry, runtime, architecture, depsLockFilePath, projectRoot }).createBundlingSteps(scope, {
    inputDir: projectRoot,
    outputDir: output,
    pathJoin: join,
    esbuildRunner: [esbuild],
    createFileOps: () => [],
  });
  const [step, ...others] = steps;
  if (!step?.command || step.type !== 'spawn' || others.length) {
    throw new Error(`aws-cdk-lib's NodejsFunction bundling no longer makes one esbuild step (${JSON.stringify(steps.map((one) => one.type))}): update lib/local/bundles.ts`);
  }
  return step.command;
}

/** One asset step into `output`: a copy made of hard links (a copy where the file system cannot link), or an esbuild. */
async function carryOut(step: AssetStep, output: string, esbuild: string, name: string): Promise<void> {
  const target = join(output, step.to);
  mkdirSync(dirname(target), { recursive: true });
  if ('from' in step) return linkTree(step.from, target);
  await run([esbuild, step.build, ...step.args, `--outfile=${target}`], name);
}

/** `from` (a file, a symbolic link or a folder) at `to`, its files hard-linked: what `cp -R` makes, sharing the bytes. */
function linkTree(from: string, to: string): void {
  const stat = lstatSync(from);
  if (stat.isSymbolicLink()) return symlinkSync(readlinkSync(from), to);
  if (stat.isDirectory()) {
    mkdirSync(to, { recursive: true });
    for (const entry of readdirSync(from)) linkTree(join(from, entry), join(to, entry));
    return;
  }
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

function run(command: string[], name: string): Promise<void> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command[0]!, command.slice(1), { cwd: PROJECT_ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolveRun() : reject(new Error(`Building the bundle of ${name} failed (exit ${code}): ${stderr.trim()}`))));
  });
}

/** Builds beyond the newest KEEP_BUILDS of one function, and abandoned build folders, once unused for an hour. */
function prune(keyFolder: string): void {
  const now = Date.now();
  const manifests = readdirSync(keyFolder)
    .filter((name) => name.endsWith('.json') && !name.startsWith('.'))
    .map((name) => ({ file: join(keyFolder, name), usedAt: statSync(join(keyFolder, name)).mtimeMs }))
    .sort((a, b) => b.usedAt - a.usedAt);
  for (const { file, usedAt } of manifests.slice(KEEP_BUILDS)) {
    if (now - usedAt < STALE_MS) continue;
    rmSync(file.slice(0, -'.json'.length), { recursive: true, force: true });
    rmSync(file, { force: true });
  }
  for (const name of readdirSync(keyFolder).filter((entry) => entry.startsWith('.building-'))) {
    const path = join(keyFolder, name);
    if (now - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
  }
}

async function eachConcurrently<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) await work(items[next++]!);
  });
  await Promise.all(lanes);
}
