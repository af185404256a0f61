#!/usr/bin/env node
// `npm test`: every layer (unit, infra, integration, e2e) in one Vitest run, then the plain closing line
// `N passed, N failed` with the real counts. The exit code is Vitest's.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const reportDir = join(root, '.data', 'test-report');
const report = join(reportDir, 'vitest.json');
mkdirSync(reportDir, { recursive: true });
rmSync(report, { force: true });

const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
const args = [vitest, 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`, ...process.argv.slice(2)];
const child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit', env: { ...process.env, CDK_HOME: join(root, '.cdk') } });
const code = await new Promise((done) => child.on('exit', (exitCode, signal) => done(exitCode ?? (signal ? 1 : 0))));

let passed = 0;
let failed = 0;
if (existsSync(report)) {
  const results = JSON.parse(readFileSync(report, 'utf8'));
  passed = results.numPassedTests ?? 0;
  failed = results.numFailedTests ?? 0;
}
// A file that failed to load counts as a failure even though none of its tests ran.
if (code !== 0 && failed === 0) failed = 1;
console.log(`${passed} passed, ${failed} failed`);
process.exit(code === 0 && failed === 0 && passed > 0 ? 0 : code || 1);
