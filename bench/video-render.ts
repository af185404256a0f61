// Local engine videos: render time of every preset at 5/8/16 s and each aspect ratio, with the measured seam score,
// then the finalize helpers on an 8 s 9:16 clip (normalize from a provider-like 9 s 1:1 clip, seam score, repair,
// thumbnail). Run: npx tsx bench/video-render.ts
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { MOTION_PRESETS, VIDEO_DURATIONS, VIDEO_SIZES } from '../lambdas/contracts/catalog.js';
import { measureSeam, normalizeVideo, probeVideo, repairLoop, thumbnail } from '../lambdas/media/index.js';
import { renderLoopingClip } from '../lambdas/providers/local-engine/video-render.js';
import { patternClip } from '../test/fixtures/media-clips.js';
import { tshirtPhoto } from '../test/fixtures/local-engine-images.js';

const dir = await mkdtemp(join(tmpdir(), 'modelloop-bench-video-'));
const loadAtStart = loadavg()[0]!;

/** Wall time, and the CPU time of this process alone (the JS side; ffmpeg runs in a child process). */
async function timed<T>(work: () => Promise<T>): Promise<{ seconds: number; nodeCpuSeconds: number; result: T }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const result = await work();
  const { user, system } = process.cpuUsage(cpu);
  return { seconds: (performance.now() - started) / 1000, nodeCpuSeconds: (user + system) / 1e6, result };
}

function printTable(header: string[], rows: string[][]) {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((cells) => cells[column]!.length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  console.log(line(header));
  for (const cells of rows) console.log(line(cells));
}

try {
  const image = await tshirtPhoto(1200, 1400);
  const renders: string[][] = [];
  for (const preset of MOTION_PRESETS) {
    for (const durationSeconds of VIDEO_DURATIONS) {
      for (const [ratio, size] of Object.entries(VIDEO_SIZES)) {
        const file = join(dir, `${preset.replace(' ', '')}-${durationSeconds}-${ratio.replace(':', 'x')}.mp4`);
        const { seconds, nodeCpuSeconds, result } = await timed(() => renderLoopingClip({ image, preset, durationSeconds, size }, file));
        const [probe, seam, { size: bytes }] = await Promise.all([probeVideo(file), measureSeam(file), stat(file)]);
        renders.push([
          preset,
          `${durationSeconds} s`,
          `${ratio} ${probe.width}×${probe.height}`,
          `${probe.durationSeconds.toFixed(3)} s / ${probe.frames} fr`,
          `${result.cycles}`,
          `${(bytes / 1024).toFixed(0)} KB`,
          seconds.toFixed(2),
          nodeCpuSeconds.toFixed(2),
          seam.score.toFixed(3),
        ]);
      }
    }
  }
  console.log(`local engine videos — ${availableParallelism()} cores, load average ${loadAtStart.toFixed(2)} at the start (other work on the machine skews timings)`);
  printTable(['preset', 'asked', 'aspect / size', 'probed duration', 'cycles', 'MP4', 'render s', 'JS cpu s', 'seam score'], renders);

  const source = await patternClip(dir, 9, 720, 720);
  const steps: string[][] = [];
  const normalized = await timed(() => normalizeVideo(source, { durationSeconds: 8, size: VIDEO_SIZES['9:16'] }));
  steps.push(['normalizeVideo 9 s 720×720 → 8 s 720×1280', normalized.seconds.toFixed(2), '']);
  const before = await timed(() => measureSeam(normalized.result));
  steps.push(['seamScore (before repair)', before.seconds.toFixed(2), before.result.score.toFixed(3)]);
  const repaired = await timed(() => repairLoop(normalized.result));
  const after = await measureSeam(repaired.result);
  const probe = await probeVideo(repaired.result);
  steps.push([`repairLoop (→ ${probe.durationSeconds.toFixed(3)} s, ${probe.frames} frames)`, repaired.seconds.toFixed(2), after.score.toFixed(3)]);
  const poster = await timed(() => thumbnail(repaired.result));
  steps.push([`thumbnail (${(poster.result.bytes.length / 1024).toFixed(0)} KB JPEG)`, poster.seconds.toFixed(2), '']);
  console.log(`\nfinalize helpers — load average ${loadavg()[0]!.toFixed(2)} at the end`);
  printTable(['step', 'seconds', 'seam score'], steps);
} finally {
  await rm(dir, { recursive: true, force: true });
}
