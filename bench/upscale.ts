// The local engine's upscale of a 1K on-model picture to each size (2K and 4K run the ESRGAN network ×2 then Lanczos,
// 8K is Lanczos alone): median wall time, and the 4K time against the wait a seller already accepts for a video
// (contracts/expected-wait.ts).
// Target: `ratio upscale.4k-vs-video` ≤ 1. Update MEASURED_UPSCALE_MEDIAN_SECONDS from the medians this prints.
// Run: npx tsx bench/upscale.ts [--runs 3]
import { availableParallelism, loadavg } from 'node:os';
import { IMAGE_SIZES, UPSCALE_RESOLUTIONS } from '../lambdas/contracts/catalog.js';
import { MEASURED_VIDEO_MEDIAN_SECONDS } from '../lambdas/contracts/expected-wait.js';
import { localOnModelImage, localUpscale } from '../lambdas/providers/local-engine/index.js';
import { tshirtPhoto } from '../test/fixtures/local-engine-images.js';

const runsIndex = process.argv.indexOf('--runs');
const RUNS = runsIndex > 0 ? Number(process.argv[runsIndex + 1]) : 3;
const loadAtStart = loadavg()[0]!;

const picture1k = (
  await localOnModelImage.generate({
    product: { bytes: await tshirtPhoto(1200, 1400), mimeType: 'image/jpeg' },
    productType: 'clothing',
    model: { description: 'model', seed: 1 },
    cameraZoom: 'mid-shot',
    size: IMAGE_SIZES['1k'],
    aspectRatio: '9:16',
    promptEnhance: false,
  })
).bytes;

const medians: Record<string, number> = {};
for (const [name, { width, height }] of Object.entries(UPSCALE_RESOLUTIONS)) {
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    const output = await localUpscale.upscale({ image: { bytes: picture1k, mimeType: 'image/png' }, size: { width, height } });
    times.push((performance.now() - started) / 1000);
    if (run === 0) console.log(`upscale 1k → ${name}: ${output.width}×${output.height} by ${output.model}`);
  }
  times.sort((a, b) => a - b);
  medians[name] = times[times.length >> 1]!;
  console.log(`upscale 1k → ${name}: median ${medians[name]!.toFixed(1)} s over ${RUNS} runs (${times.map((s) => s.toFixed(1)).join(', ')})`);
}
console.log(`${availableParallelism()} cores, load average ${loadAtStart.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}`);
console.log(`ratio upscale.4k-vs-video ${(medians['4k']! / MEASURED_VIDEO_MEDIAN_SECONDS.local!).toFixed(2)}`);
