// `npm run providers:check` without credentials runs every port against the contract fakes (so CI runs it): it exits
// 0, prints a line per configured model (served), the table with a row per operation (the Google models named, a
// closed-loop video of each length made through the Interactions API with its seam score measured) and saves every
// output in the folder it names. The model ids come from the configured defaults, never written out here.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GOOGLE_DEFAULTS } from '../../lambdas/providers/google/models.js';
import { operationCosts } from '../../lambdas/providers/list-prices.js';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const run = promisify(execFile);
let out: string;
beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'providers-check-'));
});
afterAll(() => rm(out, { recursive: true, force: true }));

describe('npm run providers:check (no credentials)', () => {
  it('runs every port against the contract fakes, prints the table and saves the outputs', async () => {
    const env = { ...process.env };
    for (const name of ['PROVIDER_IMAGE', 'PROVIDER_EDIT', 'PROVIDER_UPSCALE', 'PROVIDER_VIDEO', 'GOOGLE_API_KEY', 'GOOGLE_API_KEY_SECRET', 'GOOGLE_API_BASE_URL']) delete env[name];
    const { stdout } = await run('npx', ['tsx', 'scripts/providers-check.ts', '--out', out], { env, timeout: 580_000 });
    expect(stdout).toContain('contract fakes on loopback');
    const image = escape(`google:${GOOGLE_DEFAULTS.imageModel}`);
    const video = escape(`google:${GOOGLE_DEFAULTS.videoModel}`);
    for (const [setting, id] of [['googleImageModel', GOOGLE_DEFAULTS.imageModel], ['googleTextModel', GOOGLE_DEFAULTS.textModel], ['googleVideoModel', GOOGLE_DEFAULTS.videoModel]]) {
      expect(stdout).toMatch(new RegExp(`served +google ${escape(id!)} \\(${setting}\\)`));
    }
    for (const sample of ['tshirt-on-hanger', 'flat-lay-cardigan', 'necklace']) {
      expect(stdout).toMatch(new RegExp(`\\| on-model photo \\(${sample}\\) \\| ${image} 1K \\d+×\\d+ \\+ upscale preview-engine\\S* \\| [\\d.]+ s \\| \\$0\\.\\d+ \\|`));
    }
    expect(stdout).toMatch(new RegExp(`\\| edit \\(free text\\) \\| ${image}[ |]`));
    expect(stdout).toMatch(/\| upscale to 4K \| preview-engine/);
    // A video of each length, every clip keyed on the product photo first and last (the loop closed in the model).
    const costs = new Map(operationCosts({ providers: { image: 'google', edit: 'google', upscale: 'local', video: 'google' }, google: GOOGLE_DEFAULTS }).map((cost) => [cost.tier, cost.usd]));
    for (const [seconds, clips] of [[5, '5 s'], [8, '8 s'], [16, '8 s \\+ 8 s']] as const) {
      const listed = costs.get(`video-${seconds}s`)!.toFixed(3);
      expect(stdout).toMatch(new RegExp(`\\| video ${seconds} s 9:16 \\| ${video} \\| [\\d.]+ s \\| \\$${escape(listed)} \\| [\\d.]+ → [\\d.]+( \\(repaired\\))?; clips ${clips}, photo first and last keyframe \\|`));
    }
    expect(stdout).not.toContain('FAILED');
    // Only ids Google serves today: the fake answers a retired one with 404 (test/support/fake-google.ts).
    expect(stdout).not.toMatch(/gemini-[\w.-]*-preview/);
    const files = await readdir(out);
    expect(files).toEqual(
      expect.arrayContaining(['on-model-necklace.png', 'edit.png', 'upscale-4k.png', 'video-5s.mp4', 'video-8s.mp4', 'video-16s.mp4', 'video-16s-raw-1.mp4', 'report.md', 'sample-necklace.jpg']),
    );
  }, 600_000);
});
