// `npm run demo`: the demo studio. With a twin already running (`npm start`), seeds it; otherwise runs
// `npm start -- --demo`, which starts the twin and seeds it.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { DEMO_ACCOUNT, printDemoSummary, seedDemo } from '../lib/local/demo.js';
import { findRunningTwin } from '../lib/local/twin.js';

const root = resolve(import.meta.dirname, '..');
const running = await findRunningTwin(resolve(root, process.env.MODELLOOP_DATA_DIR ?? '.data'));
if (running) {
  console.log(`Seeding the demo studio on the running twin at ${running.webUrl}…`);
  printDemoSummary(await seedDemo(running, DEMO_ACCOUNT, (line) => console.log(`  ${line}`)), running.webUrl);
  process.exit(0);
}
const start = spawn('npm', ['start', '--', '--demo', ...process.argv.slice(2)], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => start.kill(signal));
start.on('exit', (code) => process.exit(code ?? 0));
