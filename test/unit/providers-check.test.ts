// `npm run providers:check` without credentials runs every port against the contract fakes (so CI runs it): it exits
// 0, prints the table with a row per operation (the Google models named, the video's seam score measured) and saves
// every output in the folder it names.
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

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
    const { stdout } = await run('npx', ['tsx', 'scripts/providers-check.ts', '--out', out], { env, timeout: 280_000 });
    expect(stdout).toContain('contract fakes on loopback');
    for (const sample of ['tshirt-on-hanger', 'flat-lay-cardigan', 'necklace']) {
      expect(stdout).toMatch(new RegExp(`\\| on-model photo \\(${sample}\\) \\| google:gemini-3.1-flash-image 1K \\d+×\\d+ \\+ upscale preview-engine\\S* \\| [\\d.]+ s \\| \\$0\\.\\d+ \\|`));
    }
    expect(stdout).toMatch(/\| edit \(free text\) \| google:gemini-3\.1-flash-image[ |]/);
    expect(stdout).toMatch(/\| upscale to 4K \| preview-engine/);
    expect(stdout).toMatch(/\| video 8 s 9:16 \| google:veo-3\.1-fast-generate-preview \| [\d.]+ s \| \$0\.800 \| [\d.]+ → [\d.]+/);
    expect(stdout).not.toContain('FAILED');
    // Only ids Google serves today: the fake answers a retired one with 404 (test/support/fake-google.ts).
    expect(stdout).not.toMatch(/gemini-[\w.-]*-preview/);
    const files = await readdir(out);
    expect(files).toEqual(expect.arrayContaining(['on-model-necklace.png', 'edit.png', 'upscale-4k.png', 'video.mp4', 'video-raw.mp4', 'report.md', 'sample-necklace.jpg']));
  }, 300_000);
});
