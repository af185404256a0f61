// `npm run deploy|diff|destroy -- --stage <name> [more cdk options]`: the project's pinned CDK CLI (node_modules, the
// 2.x line that reads aws-cdk-lib's assemblies) with CDK_HOME inside the project, for the stack of one stage.
// deploy builds the web app first and ends by printing the stage's URLs from the stack outputs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const [action, ...rest] = process.argv.slice(2);
if (action !== 'deploy' && action !== 'diff' && action !== 'destroy') {
  console.error('Usage: npm run deploy|diff|destroy -- --stage <name> [cdk options, e.g. -c alarmEmail=ops@example.com]');
  process.exit(2);
}
const stageAt = rest.findIndex((arg) => arg === '--stage' || arg.startsWith('--stage='));
const stage = stageAt < 0 ? 'dev' : rest[stageAt]!.includes('=') ? rest[stageAt]!.split('=')[1]! : rest[stageAt + 1];
if (!stage) {
  console.error('--stage needs a name, e.g. --stage prod');
  process.exit(2);
}
const cdkArgs = stageAt < 0 ? rest : rest.filter((_, index) => index !== stageAt && (rest[stageAt]!.includes('=') || index !== stageAt + 1));
const stack = `ModelLoop-${stage}`;
const cdkHome = join(root, '.cdk');
mkdirSync(cdkHome, { recursive: true });
const outputsFile = join(cdkHome, `outputs-${stage}.json`);

function run(command: string, args: string[]): void {
  console.log(`\n$ ${[command, ...args].join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, CDK_HOME: cdkHome } });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const cdk = join(root, 'node_modules/.bin/cdk');
if (action === 'deploy') {
  run('npm', ['run', 'build:web']);
  run(cdk, ['deploy', stack, '-c', `stage=${stage}`, '--outputs-file', outputsFile, ...cdkArgs]);
  const outputs = existsSync(outputsFile) ? (JSON.parse(readFileSync(outputsFile, 'utf8')) as Record<string, Record<string, string>>)[stack] : undefined;
  console.log(`\nModelLoop ${stage} is deployed.`);
  if (outputs) {
    console.log(`\n  Open   ${outputs.WebUrl}\n  API    ${outputs.ApiUrl}\n  Region ${outputs.Region}\n\n  (all outputs: ${outputsFile})`);
  }
} else {
  run(cdk, [action, stack, '-c', `stage=${stage}`, ...cdkArgs]);
}
