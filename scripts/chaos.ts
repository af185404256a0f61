// `npm run chaos`: the chaos suite at full size (test/support/chaos.ts): about 200 operations from 10 users against a
// twin of its own, with the local engine's faults on and one SIGKILL and restart of the twin; prints the figures and
// exits non-zero when an invariant broke. `--ops N --users N --seed N --no-kill` change the run; `--seeds N` runs N
// seeds one after another (from --seed on: seed, seed + 1, …), each with a twin of its own, and fails if any broke.
import { ensureBundles } from '../lib/local/bundles.js';
import { deployedFunctions } from '../lib/local/deployed-functions.js';
import { formatReport, runChaos } from '../test/support/chaos.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};

process.env.LOG_LEVEL ??= 'warn';
// The functions' bundles, before the first twin starts (a fresh clone builds them once; the twin then finds them).
await ensureBundles(deployedFunctions(), { progress: (line) => console.log(line) });
const firstSeed = option('seed', 2026);
const seeds = Array.from({ length: Math.max(1, option('seeds', 1)) }, (_, index) => firstSeed + index);
const broken: number[] = [];
for (const seed of seeds) {
  const report = await runChaos({
    users: option('users', 10),
    operations: option('ops', 200),
    seed,
    killAfter: args.includes('--no-kill') ? undefined : 0.4,
    log: (line) => console.log(`[chaos seed ${seed}] ${line}`),
  });
  console.log(`seed ${seed}\n${formatReport(report)}`);
  if (report.violations.length > 0) broken.push(seed);
}
if (seeds.length > 1) console.log(broken.length ? `seeds with violations: ${broken.join(', ')} of ${seeds.length}` : `all ${seeds.length} seeds hold`);
process.exit(broken.length === 0 ? 0 : 1);
