// The whole project type-checks under strict TypeScript: the Node code (lambdas, lib, bin, tests, benches) and the
// web app, each with its own module resolution.
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const tsc = resolve(root, 'node_modules/typescript7/bin/tsc');

async function typecheck(project: string): Promise<string> {
  try {
    await promisify(execFile)(process.execPath, [tsc, '-p', project, '--noEmit'], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout || error);
  }
}

describe('types', () => {
  it('type-checks the Node code', { timeout: 180_000 }, async () => {
    expect(await typecheck('tsconfig.json')).toBe('');
  });

  it('type-checks the web app', { timeout: 180_000 }, async () => {
    expect(await typecheck('web/tsconfig.json')).toBe('');
  });
});
