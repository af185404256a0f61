// The one-person check of a saved model's portrait (issue #42 item 6; target ≤ 1.5 s on the twin): the face detector's
// load (once per function instance: package check, SHA-256 of the weights, WASM start), then the time of
// countFaces per photograph (median of a few runs) with the faces it counts, for 0, 1 and 2 people and for a phone-sized
// 12 MP portrait (its decode and downscale are part of the check).
// Run: npx tsx bench/faces.ts
import sharp from 'sharp';
import { countFaces } from '../lambdas/domain/images/faces.js';
import { noPerson, onePerson, twoPeople } from '../test/fixtures/faces.js';

const RUNS = 5;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const loadStarted = performance.now();
await countFaces(await sharp({ create: { width: 64, height: 64, channels: 3, background: '#808080' } }).png().toBuffer());
console.log(`faces.load-ms ${(performance.now() - loadStarted).toFixed(0)}`);

const phone = await sharp(await onePerson()).resize(3000, 4000, { fit: 'cover' }).jpeg({ quality: 85 }).toBuffer();
const photos: Array<[string, number, Buffer]> = [
  ['no-person', 0, await noPerson()],
  ['one-person', 1, await onePerson()],
  ['two-people', 2, await twoPeople()],
  ['one-person-12mp', 1, phone],
];
for (const [name, expected, bytes] of photos) {
  const times: number[] = [];
  let counted = -1;
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    counted = await countFaces(bytes);
    times.push(performance.now() - started);
  }
  const ms = median(times);
  console.log(`faces.${name} faces ${counted} (expected ${expected}) median-ms ${ms.toFixed(0)} ${ms <= 1500 ? 'within' : 'OVER'} 1500 ms`);
}
