// Packshot time per marketplace preset (issue #42 target: ≤ 2 s from request to result for a 2000 px packshot on the
// twin; this measures the engine's part: cutout, compositing, encoding, XMP) and the compliance report's time, on
// the photographic fixtures (a busy background: the cutout network runs). Prints whether each packshot passes its
// own marketplace.
// Run: npx tsx bench/packshot.ts
import { MARKETPLACES, PACKSHOT_PRESETS } from '../lambdas/contracts/marketplace.js';
import { complianceReport } from '../lambdas/domain/marketplace/compliance.js';
import { renderPackshot } from '../lambdas/domain/marketplace/packshot.js';
import { photographicFixture, readPhotographicFixture } from '../test/fixtures/photographic/catalog.js';

const { photo } = await readPhotographicFixture(photographicFixture('tshirt-on-white-on-greenmeadow'));
// Load the network once, so its start is not counted against the first preset.
await renderPackshot(photo, { width: 256, height: 256, fill: 0.8, background: '#ffffff', format: 'png' });
for (const marketplace of MARKETPLACES) {
  const frame = PACKSHOT_PRESETS[marketplace];
  const started = performance.now();
  const shot = await renderPackshot(photo, frame, { productType: 'clothing', shadow: true });
  const rendered = performance.now();
  const report = await complianceReport(shot.bytes);
  const reported = performance.now();
  const own = report.marketplaces.find((entry) => entry.marketplace === marketplace)!;
  console.log(
    `packshot.${marketplace} ${frame.width}x${frame.height} ${frame.format} render-ms ${(rendered - started).toFixed(0)} report-ms ${(reported - rendered).toFixed(0)} bytes ${shot.bytes.length} ${own.pass ? 'pass' : 'FAIL'}`,
  );
}
