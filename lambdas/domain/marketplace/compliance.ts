// The compliance report of one picture: every marketplace's measurable rules (lambdas/contracts/marketplace.ts), each
// measured on the file itself: its pixels, size, format, bytes and XMP. The same function reports on a packshot, an
// on-model picture, an upscale or an upload.
import sharp from 'sharp';
import { CUTOUT_RULES, MARKETPLACE_NAMES, MARKETPLACE_RULES, MARKETPLACES, type ComplianceReport, type CutoutMeasures, type RuleCheck, type RuleResult } from '../../contracts/marketplace.js';
import { hasPreviewMark } from '../../providers/local-engine/label.js';
import { pieces } from '../../providers/local-engine/masks.js';
import { readDigitalSourceType } from '../images/provenance.js';

/** A pixel this close to white in every channel is background when the product's extent is measured. */
const NEAR_WHITE = 250;
/** A pixel this far (in any channel) from the ground's colour (the border's median) is not ground, when pieces are counted … */
const GROUND_TOLERANCE = 6;
/** … and a piece smaller than this share of the frame is a speck of the file's own noise, not a piece. */
const SPECK_SHARE = 0.0001;

interface Measured {
  width: number;
  height: number;
  format: string;
  bytes: number;
  whiteBorder: number;
  fill: number;
  watermark: boolean;
  digitalSourceType: string | null;
  /** The area of the pieces on the ground other than the largest, over the largest's (0: one piece). */
  strayShare: number;
  cutout?: CutoutMeasures;
}

/** Pieces are counted on a grid of blocks at most this many to a side (a block is off the ground when any pixel is). */
const PIECE_GRID = 500;

/**
 * The pieces standing on the ground: pixels off the ground's colour (the median of the border), 4-connected, counted
 * on blocks of the picture (PIECE_GRID: a 2000 px packshot in 4×4 blocks, so labelling stays a few milliseconds);
 * specks under SPECK_SHARE of the frame are left out. Answers the area of all but the largest over the largest's.
 */
function strayShareOf(data: Buffer, width: number, height: number, border: number[]): number {
  const ground = [0, 1, 2].map((c) => {
    const values = border.map((p) => data[p * 4 + c]!).sort((a, b) => a - b);
    return values[Math.floor(values.length / 2)] ?? 255;
  });
  const block = Math.max(1, Math.ceil(Math.max(width, height) / PIECE_GRID));
  const columns = Math.ceil(width / block);
  const rows = Math.ceil(height / block);
  const on = new Uint8Array(columns * rows);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const off =
        Math.abs(data[i]! - ground[0]!) > GROUND_TOLERANCE || Math.abs(data[i + 1]! - ground[1]!) > GROUND_TOLERANCE || Math.abs(data[i + 2]! - ground[2]!) > GROUND_TOLERANCE;
      if (off) on[Math.floor(y / block) * columns + Math.floor(x / block)] = 1;
    }
  }
  const { sizes } = pieces(on, columns);
  const real = sizes.slice(1).filter((size) => size >= SPECK_SHARE * on.length).sort((a, b) => b - a);
  if (real.length < 2) return 0;
  return real.slice(1).reduce((sum, size) => sum + size, 0) / real[0]!;
}

async function measure(bytes: Buffer, cutout: CutoutMeasures | undefined): Promise<Measured> {
  const meta = await sharp(bytes).metadata();
  const { data, info } = await sharp(bytes).autoOrient().toColourspace('srgb').ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const rgb = (p: number) => [data[p * 4]!, data[p * 4 + 1]!, data[p * 4 + 2]!] as const;
  let white = 0;
  const border: number[] = [];
  const count = (p: number) => {
    border.push(p);
    const [r, g, b] = rgb(p);
    if (r === 255 && g === 255 && b === 255) white++;
  };
  for (let x = 0; x < width; x++) {
    count(x);
    if (height > 1) count((height - 1) * width + x);
  }
  for (let y = 1; y < height - 1; y++) {
    count(y * width);
    if (width > 1) count(y * width + width - 1);
  }
  let left = width, right = -1, top = height, bottom = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const [r, g, b] = rgb(y * width + x);
      if (r >= NEAR_WHITE && g >= NEAR_WHITE && b >= NEAR_WHITE) continue;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
    }
  }
  const fill = right < 0 ? 0 : Math.max((right - left + 1) / width, (bottom - top + 1) / height);
  return {
    width,
    height,
    format: meta.format ?? 'unknown',
    bytes: bytes.length,
    whiteBorder: border.length ? white / border.length : 0,
    fill,
    watermark: hasPreviewMark({ data, width, height }),
    digitalSourceType: await readDigitalSourceType(bytes),
    strayShare: strayShareOf(data, width, height, border),
    ...(cutout ? { cutout } : {}),
  };
}

const round = (value: number) => Math.round(value * 1000) / 1000;

function judge(check: RuleCheck, m: Measured): Pick<RuleResult, 'measured' | 'pass'> {
  const longest = Math.max(m.width, m.height);
  const shortest = Math.min(m.width, m.height);
  switch (check.kind) {
    case 'white-border':
      return { measured: round(m.whiteBorder), pass: m.whiteBorder >= check.min };
    case 'fill':
      return { measured: round(m.fill), pass: m.fill >= check.min };
    case 'longest-side':
      return { measured: longest, pass: longest >= check.min && (check.max === undefined || longest <= check.max) };
    case 'shortest-side':
      return { measured: shortest, pass: shortest >= check.min };
    case 'both-sides':
      return { measured: shortest, pass: shortest >= check.min };
    case 'megapixels': {
      const megapixels = (m.width * m.height) / 1e6;
      return { measured: round(megapixels), pass: megapixels <= check.max };
    }
    case 'ratio': {
      const ratio = m.width / m.height;
      return { measured: round(ratio), pass: Math.abs(ratio - check.ratio) / check.ratio <= check.tolerance };
    }
    case 'format':
      return { measured: m.format, pass: check.allowed.includes(m.format) };
    case 'file-size':
      return { measured: m.bytes, pass: m.bytes <= check.maxBytes };
    case 'no-watermark':
      return { measured: m.watermark, pass: !m.watermark };
    case 'provenance':
      return { measured: m.digitalSourceType ?? 'none', pass: m.digitalSourceType !== null };
    case 'one-product':
      return { measured: round(m.strayShare), pass: m.strayShare <= check.max };
    case 'product-found':
      return { measured: round(m.cutout?.areaShare ?? 0), pass: (m.cutout?.areaShare ?? 0) >= check.min };
    case 'cutout-confidence': {
      // A colour cut on a plain ground or the seller's own mask has no network doubt to measure.
      const unsure = m.cutout?.unsureOutline;
      return unsure === undefined ? { measured: 'not measured', pass: true } : { measured: round(unsure), pass: unsure <= check.max };
    }
    case 'enlargement': {
      const factor = m.cutout ? m.cutout.frameSide / Math.max(1, m.cutout.sourceSide) : 1;
      return { measured: round(factor), pass: factor <= check.max };
    }
  }
}

/** Rules whose failure makes a cutout doubtful (review) rather than only unfit for one marketplace. */
const REVIEW_RULES = new Set(['one-product', ...CUTOUT_RULES.map((rule) => rule.id)]);

/**
 * The picture against every marketplace: each rule's measured value and pass/fail, and each marketplace's verdict.
 * `cutout`: what the cutout measured of itself, when the picture is a product cut out of a photo (a packshot); its
 * rules (CUTOUT_RULES) then join every marketplace's, and a failure of one marks the picture for review.
 */
export async function complianceReport(bytes: Buffer, cutout?: CutoutMeasures): Promise<ComplianceReport> {
  const measured = await measure(bytes, cutout);
  const marketplaces = MARKETPLACES.map((marketplace) => {
    const rules = [...MARKETPLACE_RULES[marketplace], ...(cutout ? CUTOUT_RULES : [])].map((rule) => ({ id: rule.id, label: rule.label, source: rule.source, ...judge(rule.check, measured) }));
    return { marketplace, name: MARKETPLACE_NAMES[marketplace], pass: rules.every((rule) => rule.pass), rules };
  });
  return {
    width: measured.width,
    height: measured.height,
    format: measured.format,
    bytes: measured.bytes,
    digitalSourceType: measured.digitalSourceType,
    marketplaces,
    ...(cutout ? { cutout } : {}),
    // Only a cutout is judged doubtful: an on-model picture has no "ground" to count pieces on.
    review: Boolean(cutout) && marketplaces.some((market) => market.rules.some((rule) => !rule.pass && REVIEW_RULES.has(rule.id))),
  };
}
