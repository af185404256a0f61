#!/usr/bin/env node
// `npm test`: the linter first (`npm run lint`: the import walls, no cycles; it counts as one passed or one failed),
// then every layer, one after the other — unit, infra, integration, e2e — so that on a small machine the browser
// tests don't compete with video renders for the cores; then the plain closing line `N passed, N failed` with the
// real counts over all layers. The exit code is non-zero when the linter or any layer failed.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const reportDir = join(root, '.data', 'test-report');
mkdirSync(reportDir, { recursive: true });
const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const layers = ['unit', 'infra', 'integration', 'e2e'];
const extraArgs = process.argv.slice(2);

let passed = 0;
let failed = 0;
let exitCode = 0;

const run = (command, args) =>
  new Promise((done) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, CDK_HOME: join(root, '.cdk') } });
    child.on('exit', (status, signal) => done(status ?? (signal ? 1 : 0)));
  });

console.log('\n=== lint ===');
const lintCode = await run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', '--silent', 'lint']);
if (lintCode === 0) passed += 1;
else {
  failed += 1;
  exitCode = lintCode;
}

for (const layer of layers) {
  const report = join(reportDir, `${layer}.json`);
  rmSync(report, { force: true });
  console.log(`\n=== ${layer} ===`);
  const args = [vitest, 'run', '--project', layer, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...extraArgs];
  const code = await run(process.execPath, args);
  let layerFailed = 0;
  if (existsSync(report)) {
    const results = JSON.parse(readFileSync(report, 'utf8'));
    passed += results.numPassedTests ?? 0;
    layerFailed = results.numFailedTests ?? 0;
  }
  // A file that failed to load counts as a failure even though none of its tests ran.
  if (code !== 0 && layerFailed === 0) layerFailed = 1;
  failed += layerFailed;
  if (code !== 0) exitCode = code;
}
console.log(`${passed} passed, ${failed} failed`);
process.exit(exitCode === 0 && failed === 0 && passed > 0 ? 0 : exitCode || 1);
