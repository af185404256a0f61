// The compliance report of one picture: every marketplace's measurable rules (lambdas/contracts/marketplace.ts), each
// measured on the file itself: its pixels, size, format, bytes and XMP. The same function reports on a packshot, an
// on-model picture, an upscale or an upload.
import sharp from 'sharp';
import { MARKETPLACE_NAMES, MARKETPLACE_RULES, MARKETPLACES, type ComplianceReport, type RuleCheck, type RuleResult } from '../../contracts/marketplace.js';
import { hasPreviewMark } from '../../providers/local-engine/label.js';
import { readDigitalSourceType } from '../images/provenance.js';

/** A pixel this close to white in every channel is background when the product's extent is measured. */
const NEAR_WHITE = 250;

interface Measured {
  width: number;
  height: number;
  format: string;
  bytes: number;
  whiteBorder: number;
  fill: number;
  watermark: boolean;
  digitalSourceType: string | null;
}

async function measure(bytes: Buffer): Promise<Measured> {
  const meta = await sharp(bytes).metadata();
  const { data, info } = await sharp(bytes).autoOrient().toColourspace('srgb').ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const rgb = (p: number) => [data[p * 4]!, data[p * 4 + 1]!, data[p * 4 + 2]!] as const;
  let white = 0;
  let border = 0;
  const count = (p: number) => {
    border++;
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
    whiteBorder: border ? white / border : 0,
    fill,
    watermark: hasPreviewMark({ data, width, height }),
    digitalSourceType: await readDigitalSourceType(bytes),
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
  }
}

/** The picture against every marketplace: each rule's measured value and pass/fail, and each marketplace's verdict. */
export async function complianceReport(bytes: Buffer): Promise<ComplianceReport> {
  const measured = await measure(bytes);
  return {
    width: measured.width,
    height: measured.height,
    format: measured.format,
    bytes: measured.bytes,
    digitalSourceType: measured.digitalSourceType,
    marketplaces: MARKETPLACES.map((marketplace) => {
      const rules = MARKETPLACE_RULES[marketplace].map((rule) => ({ id: rule.id, label: rule.label, source: rule.source, ...judge(rule.check, measured) }));
      return { marketplace, name: MARKETPLACE_NAMES[marketplace], pass: rules.every((rule) => rule.pass), rules };
    }),
  };
}
