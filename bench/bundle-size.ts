// Measures every Lambda function exactly as synth packages it: synthesizes the app with the project's CDK CLI
// (offline, like `npm run synth`) into a temporary cloud assembly, then prints, per function asset, the bundle's size
// and gzip size, the architecture, whether it carries sharp (node_modules/sharp beside the bundle) or ffmpeg (the
// media layer), and the cold module load: the median of 9 fresh Node processes each importing the asset's index.mjs
// from the asset folder, so its packaged files (sharp's packages) resolve as they do in Lambda. The load is given as
// wall time and as CPU time of the import: on a shared machine the wall time grows with the load average (printed),
// the CPU time much less.
//
//   npx tsx bench/bundle-size.ts                    synthesize, then measure
//   npx tsx bench/bundle-size.ts --assembly cdk.out measure an assembly synthesized before (e.g. another commit's)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { bundleBudgetOf, MAX_LEAN_BUNDLE_BYTES, MAX_STRIPE_LIBRARY_BUNDLE_BYTES, STRIPE_LIBRARY_HANDLERS } from '../lib/bundle-budget.js';

const root = resolve(import.meta.dirname, '..');
const RUNS = 9;
/**
 * The limits the functions without native modules are held to (test/infra/lean-functions.test.ts checks the size):
 * 400 KB, and 1 MB for the named exceptions, the functions that carry Stripe's official library.
 */
const MAX_LEAN_KB = MAX_LEAN_BUNDLE_BYTES / 1024;
const MAX_STRIPE_LIBRARY_KB = MAX_STRIPE_LIBRARY_BUNDLE_BYTES / 1024;
const MAX_LEAN_LOAD_MS = 60;
/** A function's construct name (CreateCheckoutSession) as its handler's (create-checkout-session). */
const handlerOf = (name: string) => name.replace(/(?<=[a-z0-9])([A-Z])/g, '-$1').toLowerCase();
const isStripeLibraryFunction = (fn: { name: string }) => (STRIPE_LIBRARY_HANDLERS as readonly string[]).includes(handlerOf(fn.name));

interface CfnResource {
  Type: string;
  Properties?: Record<string, any>;
  Metadata?: Record<string, any>;
}

function synthesize(): { directory: string; cleanup: () => void } {
  const directory = mkdtempSync(join(tmpdir(), 'modelloop-bench-cdk-'));
  // The web build is not measured here: a stand-in keeps the bench independent of `npm run build:web`.
  const webRoot = mkdtempSync(join(tmpdir(), 'modelloop-bench-web-'));
  // Both pages the web hosting construct requires (the prerendered landing page and the app shell).
  for (const page of ['index.html', 'app.html']) writeFileSync(join(webRoot, page), '<!doctype html><title>ModelLoop</title>');
  const cleanup = () => [directory, webRoot].forEach((dir) => rmSync(dir, { recursive: true, force: true }));
  console.log(`synthesizing with the project's CDK CLI into ${directory} …`);
  const started = performance.now();
  const synth = spawnSync(join(root, 'node_modules/.bin/cdk'), ['synth', '--quiet', '--output', directory, '--context', `webRoot=${webRoot}`], {
    cwd: root,
    // cdk.json's default providers (Google, the studio's own upscale) synthesize in any region; one is named for the CLI.
    env: { ...process.env, CDK_HOME: join(root, '.cdk'), AWS_REGION: 'us-east-1', AWS_DEFAULT_REGION: 'us-east-1' },
    encoding: 'utf8',
  });
  if (synth.status !== 0) {
    cleanup();
    throw new Error(`cdk synth failed (exit ${synth.status}):\n${synth.stderr}`);
  }
  console.log(`synthesized in ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  return { directory, cleanup };
}

interface Measured {
  name: string;
  directory: string;
  bytes: number;
  gzipBytes: number;
  architecture: string;
  sharp: boolean;
  ffmpeg: boolean;
  /** The ESRGAN folder beside the bundle (worker, WASM, weights: the upscale task only), in bytes; 0 without one. */
  esrganBytes: number;
  environment: Record<string, string>;
  loadsMs: number[];
  cpuMs: number[];
  error?: string;
}

/** Our functions: those whose asset is a bundled index.mjs (CDK's own helper functions are left out). */
function functionsOf(assembly: string): Measured[] {
  const templateFile = readdirSync(assembly).find((file) => file.endsWith('.template.json'));
  if (!templateFile) throw new Error(`no template in ${assembly}`);
  const resources = (JSON.parse(readFileSync(join(assembly, templateFile), 'utf8')) as { Resources: Record<string, CfnResource> }).Resources;
  const assetOf = (resource: CfnResource | undefined) => {
    const path = resource?.Metadata?.['aws:asset:path'];
    return typeof path === 'string' ? join(assembly, path) : undefined;
  };
  const carriesFfmpeg = (layers: unknown[] = []) =>
    layers.some((layer) => {
      const id = (layer as { Ref?: string }).Ref;
      const asset = id ? assetOf(resources[id]) : undefined;
      return asset !== undefined && existsSync(join(asset, 'bin', 'ffmpeg'));
    });
  return Object.values(resources)
    .filter((resource) => resource.Type === 'AWS::Lambda::Function')
    .flatMap((resource): Measured[] => {
      const directory = assetOf(resource);
      if (!directory || !existsSync(join(directory, 'index.mjs'))) return [];
      const bundle = readFileSync(join(directory, 'index.mjs'));
      const path = String(resource.Metadata?.['aws:cdk:path'] ?? '').split('/');
      const name = (path.at(-2) ?? '?').replace(/Function$/, '');
      // Literal settings as deployed; names of tables, buckets and workflows only resolve at deploy time.
      const variables = (resource.Properties?.Environment?.Variables ?? {}) as Record<string, unknown>;
      const environment = Object.fromEntries(
        Object.entries(variables).map(([key, value]) => [key, typeof value === 'string' ? value : `bench-${key.toLowerCase()}`]),
      );
      return [
        {
          name,
          directory,
          bytes: bundle.length,
          gzipBytes: gzipSync(bundle, { level: 9 }).length,
          architecture: resource.Properties?.Architectures?.[0] ?? 'x86_64',
          sharp: existsSync(join(directory, 'node_modules', 'sharp')),
          ffmpeg: carriesFfmpeg(resource.Properties?.Layers),
          esrganBytes: existsSync(join(directory, 'esrgan')) ? Number(execFileSync('du', ['-sk', join(directory, 'esrgan')], { encoding: 'utf8' }).split('\t')[0]) * 1024 : 0,
          environment,
          loadsMs: [],
          cpuMs: [],
        },
      ];
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** One fresh Node process importing the bundle; the wall and CPU time of the import alone, in ms. */
function loadOnce(fn: Measured, probe: string): { wall: number; cpu: number } {
  const output = execFileSync(process.execPath, [probe, pathToFileURL(join(fn.directory, 'index.mjs')).href], {
    cwd: fn.directory,
    env: {
      PATH: process.env.PATH,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'bench',
      AWS_SECRET_ACCESS_KEY: 'bench',
      AWS_LAMBDA_FUNCTION_NAME: fn.name,
      ...fn.environment,
    },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [wall, cpu] = output.trim().split(' ').map(Number);
  return { wall: wall!, cpu: cpu! };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

const assemblyArgument = process.argv.indexOf('--assembly');
const synthesized = assemblyArgument > 0 ? undefined : synthesize();
const assembly = synthesized?.directory ?? resolve(process.argv[assemblyArgument + 1] ?? 'cdk.out');
try {
  const functions = functionsOf(assembly);
  const probeDirectory = mkdtempSync(join(tmpdir(), 'modelloop-bench-probe-'));
  const probe = join(probeDirectory, 'probe.mjs');
  writeFileSync(
    probe,
    'const cpu = process.cpuUsage(); const started = performance.now(); await import(process.argv[2]);\n' +
      'const wall = performance.now() - started; const used = process.cpuUsage(cpu);\n' +
      'console.log(`${wall} ${(used.user + used.system) / 1000}`);\n',
  );
  const loadBefore = loadavg()[0]!;
  // Round-robin, so a burst of load on the machine spreads over all functions instead of skewing one.
  for (let run = 0; run < RUNS; run++) {
    for (const fn of functions.filter((candidate) => !candidate.error)) {
      try {
        const { wall, cpu } = loadOnce(fn, probe);
        fn.loadsMs.push(wall);
        fn.cpuMs.push(cpu);
      } catch (error) {
        const stderr = String((error as { stderr?: string }).stderr ?? error);
        fn.error = stderr.split('\n').find((line) => /Error/.test(line))?.trim() ?? stderr.slice(0, 200);
      }
    }
  }
  // The floor on this machine: the same probe importing an empty module.
  const empty: Measured = { ...functions[0]!, name: 'empty', directory: probeDirectory, environment: {}, loadsMs: [], cpuMs: [] };
  writeFileSync(join(probeDirectory, 'index.mjs'), '');
  for (let run = 0; run < RUNS; run++) {
    const { wall, cpu } = loadOnce(empty, probe);
    empty.loadsMs.push(wall);
    empty.cpuMs.push(cpu);
  }
  rmSync(probeDirectory, { recursive: true, force: true });

  console.log(
    `load average ${loadBefore.toFixed(1)} before the loads, ${loadavg()[0]!.toFixed(1)} after (${cpus().length} cores); ` +
      `an empty module loads in ${median(empty.loadsMs).toFixed(1)} ms wall, ${median(empty.cpuMs).toFixed(1)} ms CPU\n`,
  );
  console.log(`function                       size KB  gzip KB  arch     sharp  ffmpeg  esrgan MB  asset MB  load ms  cpu ms  (medians of ${RUNS})`);
  for (const fn of functions) {
    const assetMb = Number(execFileSync('du', ['-sk', fn.directory], { encoding: 'utf8' }).split('\t')[0]) / 1024;
    console.log(
      [
        fn.name.padEnd(30),
        (fn.bytes / 1024).toFixed(0).padStart(7),
        (fn.gzipBytes / 1024).toFixed(0).padStart(8),
        ' ' + fn.architecture.padEnd(7),
        (fn.sharp ? 'yes' : '-').padStart(6),
        (fn.ffmpeg ? 'yes' : '-').padStart(7),
        (fn.esrganBytes ? (fn.esrganBytes / 1024 / 1024).toFixed(1) : '-').padStart(10),
        assetMb.toFixed(1).padStart(9),
        fn.error ? `  FAILED: ${fn.error}` : `${median(fn.loadsMs).toFixed(0).padStart(7)} ${median(fn.cpuMs).toFixed(0).padStart(7)}`,
      ].join(' '),
    );
  }
  const stripeLibrary = functions.filter(isStripeLibraryFunction);
  const lean = functions.filter((fn) => !fn.sharp && !fn.ffmpeg && !isStripeLibraryFunction(fn));
  const loaded = lean.filter((fn) => !fn.error);
  console.log(
    `\n${functions.length} functions; ${functions.filter((fn) => fn.sharp).length} carry sharp, ${functions.filter((fn) => fn.ffmpeg).length} ffmpeg, ` +
      `${functions.filter((fn) => fn.architecture === 'arm64').length} run on arm64.`,
  );
  if (lean.length) {
    console.log(
      `Without native modules, the Stripe functions aside (${lean.length}): largest bundle ${(Math.max(...lean.map((fn) => fn.bytes)) / 1024).toFixed(0)} KB (limit ${MAX_LEAN_KB}), ` +
        `slowest median load ${loaded.length ? Math.max(...loaded.map((fn) => median(fn.loadsMs))).toFixed(0) : '-'} ms wall, ` +
        `${loaded.length ? Math.max(...loaded.map((fn) => median(fn.cpuMs))).toFixed(0) : '-'} ms CPU (limit ${MAX_LEAN_LOAD_MS}).`,
    );
  }
  if (stripeLibrary.length) {
    // The named exceptions: what Stripe's official library costs each of them, in size and in cold load.
    console.log(
      `With Stripe's official library (${stripeLibrary.length}, limit ${MAX_STRIPE_LIBRARY_KB} KB each): ` +
        stripeLibrary
          .map((fn) => {
            const over = fn.bytes > bundleBudgetOf(handlerOf(fn.name)) ? ' OVER' : '';
            const load = fn.error ? 'failed to load' : `${median(fn.loadsMs).toFixed(0)} ms wall, ${median(fn.cpuMs).toFixed(0)} ms CPU`;
            return `${handlerOf(fn.name)} ${(fn.bytes / 1024).toFixed(0)} KB${over}, load ${load}`;
          })
          .join('; ') +
        '.',
    );
  }
  const failed = functions.filter((fn) => fn.error);
  if (failed.length) {
    console.log(`${failed.length} bundles failed to load: ${failed.map((fn) => fn.name).join(', ')}`);
    process.exitCode = 1;
  }
} finally {
  synthesized?.cleanup();
}
