// The preview engine's cutout against the hand-made masks of test/fixtures/products: IoU per picture and the mean
// (target ≥ 0.95 on plain backgrounds), with the time of one cutout.
// Run: npx tsx bench/cutout.ts
import { PRODUCT_FIXTURES } from '../test/fixtures/products/catalog.js';
import { cutoutIoU } from '../test/fixtures/products/iou.js';

const rows: string[][] = [];
let sum = 0;
for (const fixture of PRODUCT_FIXTURES) {
  const { iou, ms } = await cutoutIoU(fixture);
  sum += iou;
  rows.push([fixture.name, fixture.productType, iou.toFixed(4), ms.toFixed(0)]);
}
const mean = sum / PRODUCT_FIXTURES.length;
const widths = [0, 1, 2, 3].map((column) => Math.max(...[['picture', 'type', 'IoU', 'ms'], ...rows].map((row) => row[column]!.length)));
for (const row of [['picture', 'type', 'IoU', 'ms'], ...rows]) console.log(row.map((cell, i) => cell.padEnd(widths[i]!)).join('  '));
console.log(`\nmean IoU over ${PRODUCT_FIXTURES.length} pictures: ${mean.toFixed(4)} (target ≥ 0.95)`);
console.log(`cutout.mean-iou ${mean.toFixed(4)}`);
