// Bundles every route's handler the way CDK does (ESM, minified, the AWS SDK inside) and prints its size and the
// time a fresh Node process takes to load it. Run: npx tsx bench/bundle-size.ts [handler,handler…] (default: all)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { ROUTES } from '../lambdas/routes.js';

const root = resolve(import.meta.dirname, '..');
const out = mkdtempSync(join(tmpdir(), 'modelloop-bundles-'));
const only = process.argv[2]?.split(',');
const handlers = [...new Set(ROUTES.map((route) => route.handler as string))].filter((handler) => !only || only.includes(handler));
console.log('handler                          size KB   gzip KB   cold load ms (median of 5)');
for (const handler of handlers) {
  const outfile = join(out, `${handler}.mjs`);
  await build({
    entryPoints: [join(root, 'lambdas/handlers', `${handler}.ts`)],
    bundle: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    minify: true,
    outfile,
    banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
    logLevel: 'error',
  });
  const gzip = Number(execFileSync('sh', ['-c', `gzip -9 -c ${outfile} | wc -c`]).toString());
  const probe = join(out, `${handler}.probe.mjs`);
  writeFileSync(probe, `const t = performance.now(); await import(${JSON.stringify(outfile)}); console.log(performance.now() - t);`);
  const loads = Array.from({ length: 5 }, () =>
    Number(execFileSync(process.execPath, [probe], { env: { ...process.env, AWS_REGION: 'us-east-1' } }).toString()),
  ).sort((a, b) => a - b);
  console.log(
    `${handler.padEnd(32)} ${(statSync(outfile).size / 1024).toFixed(0).padStart(7)}   ${(gzip / 1024).toFixed(0).padStart(7)}   ${loads[2]!.toFixed(0).padStart(6)}`,
  );
}
