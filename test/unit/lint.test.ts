// The walls `npm run lint` keeps (eslint.config.js, scripts/import-cycles.mjs): a file that crosses one fails the lint
// with the reason. Each case lints a small file that is not on disk, placed where the crossing would be.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ESM script without type declarations
import { findCycles, importGraph, sourceFiles } from '../../scripts/import-cycles.mjs';

const root = resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

/** The rule ids and messages ESLint reports for `code` as if it were the file `filePath`. */
async function lint(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, filePath) });
  return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

describe('the import walls', { timeout: 120_000 }, () => {
  it('lets the web app import only the contracts of lambdas/', async () => {
    expect(await lint('web/src/features/probe/probe.ts', "import { tableName } from '../../../../lambdas/data/tables.js';\nexport const t = tableName;\n")).toEqual([
      expect.stringMatching(/^boundaries\/dependencies: The web app imports only lambdas\/contracts/),
    ]);
    expect(await lint('web/src/lib/probe.ts', "import { log } from '../../../lambdas/core/log.js';\nexport const l = log;\n")).toHaveLength(1);
    expect(await lint('web/src/features/probe/probe.ts', "import { IDEMPOTENCY_HEADER } from '@contracts/api';\nexport const h = IDEMPOTENCY_HEADER;\n")).toEqual([]);
  });

  it("keeps a web feature out of another feature's internals, but not out of its own files or another's index.ts", async () => {
    expect(await lint('web/src/features/probe/probe.ts', "import { PricesPage } from '@/features/prices/prices-page';\nexport const p = PricesPage;\n")).toEqual([
      expect.stringMatching(/^boundaries\/dependencies: A web feature imports another feature only through its index.ts/),
    ]);
    expect(await lint('web/src/features/probe/probe.ts', "import { x } from '../prices/use-pricing-tiers';\nexport const p = x;\n")).toHaveLength(1);
    expect(await lint('web/src/features/probe/probe.ts', "import { usePricingTiers } from '@/features/prices';\nexport const p = usePricingTiers;\n")).toEqual([]);
    expect(await lint('web/src/features/prices/probe.ts', "import { PricesPage } from './prices-page';\nexport const p = PricesPage;\n")).toEqual([]);
  });

  it('keeps lib/ (and the local twin) out of lambdas/', async () => {
    expect(await lint('lambdas/domain/probe.ts', "import { readConfig } from '../../lib/config.js';\nexport const c = readConfig;\n")).toEqual([
      expect.stringMatching(/^boundaries\/dependencies: lambdas\/ is deployed on its own/),
    ]);
    expect(await lint('lambdas/handlers/probe.ts', "export const twin = () => import('../../lib/local/functions.js');\n")).toHaveLength(1);
  });

  it('keeps lambdas/core at the bottom', async () => {
    for (const target of ['../data/tables.js', '../workflows.js', '../domain/spending.js', '../providers/registry.js']) {
      expect(await lint('lambdas/core/probe.ts', `export * from '${target}';\n`), target).toEqual([
        expect.stringMatching(/^boundaries\/dependencies: lambdas\/core is the bottom layer/),
      ]);
    }
    expect(await lint('lambdas/core/probe.ts', "export { AppError } from './errors.js';\nexport type { IdempotencyKey } from '../contracts/api.js';\n")).toEqual([]);
  });

  it('refuses what the picture does not draw: each layer imports only the layers below it', async () => {
    const refused: [string, string, RegExp][] = [
      ['lambdas/contracts/probe.ts', "import ipaddr from 'ipaddr.js';\nexport const a = ipaddr;\n", /^no-restricted-imports: .*lambdas\/contracts ships to the browser/],
      ['lambdas/contracts/probe.ts', "import { log } from '../core/log.js';\nexport const a = log;\n", /lambdas\/contracts ships to the browser/],
      ['lambdas/data/probe.ts', "import { x } from '../domain/spending.js';\nexport const a = x;\n", /lambdas\/data \(the repositories\) imports only core and contracts/],
      ['lambdas/providers/probe.ts', "import { x } from '../data/tables.js';\nexport const a = x;\n", /lambdas\/providers imports only core, contracts, storage, media and net/],
      // Not named by any wall, and not drawn: refused by default.
      ['lambdas/net/probe.ts', "import { x } from '../data/tables.js';\nexport const a = x;\n", /does not draw/],
      ['web/src/lib/probe.ts', "import { x } from '@/features/prices';\nexport const a = x;\n", /never import a feature or the app/],
      ['web/src/components/probe.ts', "import { x } from '@/app/app';\nexport const a = x;\n", /never import a feature or the app/],
      ['web/src/features/prices/probe.ts', "import { x } from '@/app/app';\nexport const a = x;\n", /A web feature never imports web\/src\/app/],
    ];
    for (const [file, code, reason] of refused) expect(await lint(file, code), `${file}: ${code}`).toEqual([expect.stringMatching(reason)]);
    const drawn: [string, string][] = [
      ['lambdas/contracts/probe.ts', "import * as z from 'zod';\nexport const a = z;\n"],
      ['lambdas/providers/probe.ts', "import { x } from '../net/address-guard.js';\nexport const a = x;\n"],
      ['web/src/features/prices/probe.ts', "import { cn } from '@/lib/cn';\nexport const a = cn;\n"],
    ];
    for (const [file, code] of drawn) expect(await lint(file, code), `${file}: ${code}`).toEqual([]);
  });

  it('keeps every DynamoDB import in lambdas/data', async () => {
    const code = "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nexport const c = DynamoDBClient;\n";
    expect(await lint('lambdas/realtime/probe.ts', code)).toEqual([expect.stringMatching(/^no-restricted-imports: .*All DynamoDB access lives in lambdas\/data/)]);
    expect(await lint('lambdas/domain/probe.ts', "export const load = () => import('@aws-sdk/lib-dynamodb');\n")).toEqual([
      expect.stringMatching(/^no-restricted-syntax: All DynamoDB access lives in lambdas\/data/),
    ]);
    expect(await lint('lambdas/data/probe.ts', code)).toEqual([]);
  });
});

describe('import cycles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'modelloop-cycles-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds a cycle made of a type import and a dynamic import, and names its files', () => {
    mkdirSync(join(dir, 'engine'));
    writeFileSync(join(dir, 'registry.ts'), "export interface Engine { run(): void }\nexport const load = () => import('./engine/index.js');\n");
    writeFileSync(join(dir, 'engine', 'index.ts'), "import type { Engine } from '../registry.js';\nexport const engine: Engine = { run() {} };\n");
    writeFileSync(join(dir, 'ports.ts'), 'export interface Port { name: string }\n');
    writeFileSync(join(dir, 'user.ts'), "import type { Port } from './ports.js';\nexport const port: Port = { name: 'x' };\n");
    const options = { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext };
    const cycles: string[][] = findCycles(importGraph(sourceFiles(dir), () => options));
    expect(cycles).toEqual([[join(dir, 'engine', 'index.ts'), join(dir, 'registry.ts')]]);
  });
});

describe('claims a test cannot skip silently (test-guards/no-silent-pass)', { timeout: 120_000 }, () => {
  const guard = async (code: string) => (await lint('test/unit/probe.test.ts', `import { expect, it } from 'vitest';\ndeclare const ready: boolean;\ndeclare const value: number;\n${code}`)).filter((message) => message.startsWith('test-guards/'));
  const CONDITIONAL = /^test-guards\/no-silent-pass: An assertion inside an `if` without an `else` passes silently/;
  const RETURN = /^test-guards\/no-silent-pass: This bare `return` skips the assertions after it/;

  it('refuses an expect inside an if without an else, or after && (and a waitFor, the e2e claim)', async () => {
    expect(await guard("it('x', () => {\n  if (ready) expect(value).toBe(1);\n});\n")).toEqual([expect.stringMatching(CONDITIONAL)]);
    expect(await guard("it('x', async () => {\n  if (ready) {\n    await expect.poll(() => value).toBe(1);\n  } else if (value > 2) {\n    expect(value).toBe(3);\n  }\n});\n")).toEqual([
      expect.stringMatching(CONDITIONAL),
    ]);
    expect(await guard("it('x', () => {\n  ready && expect(value).toBe(1);\n});\n")).toEqual([expect.stringMatching(CONDITIONAL)]);
    expect(await guard("declare const page: { waitFor(): Promise<void> };\nit('x', async () => {\n  if (ready) await page.waitFor();\n});\n")).toEqual([expect.stringMatching(CONDITIONAL)]);
    // In a helper too: the claim is skipped wherever the if is.
    expect(await guard("export function check(): void {\n  for (const n of [value]) {\n    if (n > 0) {\n      expect(n).toBe(1);\n      continue;\n    }\n  }\n}\n")).toEqual([expect.stringMatching(CONDITIONAL)]);
  });

  it('refuses a bare return that skips the assertions after it', async () => {
    expect(await guard("it('x', () => {\n  if (!ready) return;\n  expect(value).toBe(1);\n});\n")).toEqual([expect.stringMatching(RETURN)]);
    expect(await guard("it.each([1, 2])('x %i', async (n) => {\n  expect(n).toBeGreaterThan(0);\n  if (!ready) {\n    return;\n  }\n  expect(value).toBe(n);\n});\n")).toEqual([expect.stringMatching(RETURN)]);
  });

  it('accepts an if with an else, a branch that leaves into more assertions, a return after its own, it.skipIf, and a named exception', async () => {
    const accepted = [
      "it('x', () => {\n  if (ready) expect(value).toBe(1);\n  else expect(value).toBe(0);\n});\n",
      "it('x', () => {\n  if (ready) expect(value).toBe(1);\n  else if (value > 2) expect(value).toBe(3);\n  else expect(value).toBeLessThan(3);\n});\n",
      "it('x', () => {\n  for (const n of [value]) {\n    if (n === 0) {\n      expect(ready).toBe(false);\n      continue;\n    }\n    expect(ready).toBe(true);\n  }\n});\n",
      "it('x', () => {\n  if (ready) {\n    expect(value).toBe(1);\n    return;\n  }\n  expect(value).toBe(0);\n});\n",
      "it.skipIf(!ready)('x', () => {\n  expect(value).toBe(1);\n});\n",
      "it('x', () => {\n  // test-guard: only a refusal promises to store nothing\n  if (value >= 400) expect(ready).toBe(false);\n});\n",
      "it('x', () => {\n  if (!ready) return; // test-guard: the value is checked by the test above\n  expect(value).toBe(1);\n});\n",
      // A condition that only chooses what to do (no claim inside) is not a guard.
      "it('x', async () => {\n  if (ready) await Promise.resolve();\n  expect(value).toBe(1);\n});\n",
    ];
    for (const code of accepted) expect(await guard(code), code).toEqual([]);
    // A comment that names no reason is no exception.
    expect(await guard("it('x', () => {\n  // test-guard:\n  if (ready) expect(value).toBe(1);\n});\n")).toEqual([expect.stringMatching(CONDITIONAL)]);
  });
});
