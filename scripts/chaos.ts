// `npm run chaos`: the chaos suite at full size (test/support/chaos.ts): about 200 operations from 10 users against a
// twin of its own, with the local engine's faults on and one SIGKILL and restart of the twin; prints the figures and
// exits non-zero when an invariant broke. `--ops N --users N --seed N --no-kill` change the run.
import { formatReport, runChaos } from '../test/support/chaos.js';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const index = args.indexOf(`--${name}`);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};

process.env.LOG_LEVEL ??= 'warn';
const report = await runChaos({
  users: option('users', 10),
  operations: option('ops', 200),
  seed: option('seed', 2026),
  killAfter: args.includes('--no-kill') ? undefined : 0.4,
  log: (line) => console.log(`[chaos] ${line}`),
});
console.log(formatReport(report));
process.exit(report.violations.length === 0 ? 0 : 1);
