// The segmentation network's mask, refined by the photo's own colours (bench/cutout.ts measures every step on the
// photographic fixtures). U²-Net-p sees the picture at 320 px: it finds where the product is, but loses thin chains and
// hooks, fills a ring's hole, and its edge is a few pixels off. The refinement is a colour model seeded by the network,
// in the spirit of GrabCut (Rother et al., 2004) without its graph cut, which would erase one-pixel chains:
// - colour histograms (16 levels per channel) of the product and of the background, weighted by the network's
//   probability; a pixel is product when its colour is at least RATIO times likelier under the product's histogram,
//   with the network's opinion as a weak prior; the log-ratio is smoothed over 3×3 so single noisy pixels do not flip;
//   a second round re-estimates both histograms from the first round's mask;
// - for jewelry, the product's colours come only from a thin band inside the network's confident outline: a ring's
//   hole, which the network fills, shows the background's colours and is not learned as product;
// - pieces are kept when they reach the network's confident region, through gaps of up to GAP pixels (a chain whose
//   anti-aliased links break it into dots still reaches its pendant), so background that merely shares a colour goes;
// - the mask grows from there into the pixels that are a mix of a product colour and the local background with at
//   least half of the product (a thin chain's edge), tested per pixel against the background just around it;
// - for jewelry, a chain the network missed altogether (not touching its pendant) is found as a long, thin piece of
//   such mixed pixels;
// - garments and figures keep their small enclosed holes (a print's anti-aliased rim); a jewel's holes stay holes;
// - the edge is feathered by one pixel, outwards.
import { pieces, type CutoutKind } from './masks.js';
import { openRgba, resizePlane, toRgba, type RgbaImage } from './raster.js';
import { segmentForeground } from './segmentation.js';

/**
 * The longest side the refinement works at: a larger picture (a packshot's source is up to 1600 px, an on-model
 * photo's product up to 3072) is refined on a copy this size and its mask enlarged, so its time is bounded (bench/
 * cutout.ts, "×4"). Its pixel measures (GAP, BAND, RING, CHAIN_WIDTH) were set at this scale, the photographic
 * fixtures' own: a chain's width and gaps in pixels depend on it, and the thin-chain rules are fragile away from it
 * (the ×4 set refined at 475 px loses the ladybird necklace's chain: IoU 0.48 against 0.89 at 440).
 */
const REFINE_MAX_SIDE = 440;
/** Colour levels per channel of the histograms (16 → 4,096 bins). */
const LEVELS = 16;
const LEVEL_SHIFT = 8 - Math.log2(LEVELS);
/** A pixel is product when its colour is this many times likelier under the product's histogram than the background's … */
const RATIO = 10;
/** … with the network's log-odds counted at this weight (a hint, not a verdict: it fills rings and misses chains). */
const NETWORK_WEIGHT = 0.1;
/** The share of a pixel's log-ratio taken from its 3×3 neighbourhood's mean. */
const SMOOTHING = 0.5;
/** Rounds of histogram estimation (the second learns from the first round's mask instead of the network). */
const ROUNDS = 2;
/** The network's probability (0–255) from which a pixel is in its confident region, where kept pieces must reach. */
const SEED = 128;
/** Jewelry: the network's probability from which its outline is drawn, and the band inside it whose colours are the product's. */
const OUTLINE = 240;
const BAND = 3;
/** Gaps (pixels) a piece may cross to reach the confident region. */
const GAP = 3;
/** Growing: the local background is the ring of pixels at this distance … */
const RING = 2;
/** … and a pixel joins when it is a mix of product and that background with a residual below this colour distance … */
const MIX_RESIDUAL = 16;
/** … and product colours at least this far (colour distance) from the background, so the mix is measurable. */
const MIN_CONTRAST = 30;
/** Jewelry: a piece of mixed pixels is a chain when at least this share of the picture's short side long … */
const CHAIN_LENGTH = 0.25;
/** … and at most this many pixels wide on average. */
const CHAIN_WIDTH = 6;
/** Jewelry: a colour is the background's when its bin holds at least this share of the background (see fillStones). */
const STONE_BIN_SHARE = 0.0005;
/** Garments and figures: enclosed holes smaller than this share of the product are filled. */
const HOLE_SHARE = 0.01;
/** The product's colours for growing: the mean colours of its most common histogram bins. */
const PALETTE_SIZE = 24;

function neighbours8(p: number, width: number, count: number): number[] {
  const x = p % width;
  const left = x > 0;
  const right = x < width - 1;
  return [left ? p - 1 : -1, right ? p + 1 : -1, p - width, p + width, left ? p - width - 1 : -1, right ? p - width + 1 : -1, left ? p + width - 1 : -1, right ? p + width + 1 : -1].filter(
    (q) => q >= 0 && q < count,
  );
}

/** Whether any pixel within `radius` (a square) of p satisfies `test`. */
function anyWithin(p: number, radius: number, width: number, height: number, test: (q: number) => boolean): boolean {
  const x = p % width;
  const y = (p - x) / width;
  for (let dy = -radius; dy <= radius; dy++) {
    const ny = y + dy;
    if (ny < 0 || ny >= height) continue;
    for (let dx = -radius; dx <= radius; dx++) {
      const nx = x + dx;
      if (nx >= 0 && nx < width && test(ny * width + nx)) return true;
    }
  }
  return false;
}

/** The first round's weights: how much each pixel teaches the product's histogram and the background's. */
function networkWeights(image: RgbaImage, network: Uint8Array, kind: CutoutKind): { product: Float32Array; background: Float32Array } {
  const { width, height } = image;
  const count = width * height;
  const product = new Float32Array(count);
  const background = new Float32Array(count);
  for (let p = 0; p < count; p++) {
    const probability = network[p]! / 255;
    if (kind !== 'jewelry') {
      product[p] = probability;
      background[p] = 1 - probability;
    } else if (network[p]! < OUTLINE) {
      background[p] = 1 - probability;
    } else {
      // Inside the outline only its band teaches the product's colours; the rest (a ring's hole) teaches nothing.
      product[p] = anyWithin(p, BAND, width, height, (q) => network[q]! < OUTLINE) ? 1 : 0;
    }
  }
  return { product, background };
}

/** Colour-model classification: 1 = product. */
function classify(image: RgbaImage, network: Uint8Array, bins: Uint16Array, weights: { product: Float32Array; background: Float32Array }): Uint8Array {
  const { width, height } = image;
  const count = width * height;
  const binCount = LEVELS ** 3;
  const product = new Float64Array(binCount);
  const background = new Float64Array(binCount);
  let productTotal = 0;
  let backgroundTotal = 0;
  for (let p = 0; p < count; p++) {
    const bin = bins[p]!;
    product[bin] = product[bin]! + weights.product[p]!;
    background[bin] = background[bin]! + weights.background[p]!;
    productTotal += weights.product[p]!;
    backgroundTotal += weights.background[p]!;
  }
  // Add-half smoothing: a colour neither histogram has seen is even.
  const logRatio = new Float64Array(binCount);
  for (let b = 0; b < binCount; b++) {
    logRatio[b] = Math.log((product[b]! + 0.5) / (productTotal + binCount / 2)) - Math.log((background[b]! + 0.5) / (backgroundTotal + binCount / 2));
  }
  const score = new Float32Array(count);
  for (let p = 0; p < count; p++) {
    const probability = Math.min(0.995, Math.max(0.005, network[p]! / 255));
    score[p] = logRatio[bins[p]!]! - Math.log(RATIO) + NETWORK_WEIGHT * Math.log(probability / (1 - probability));
  }
  const mask = new Uint8Array(count);
  for (let p = 0; p < count; p++) {
    let sum = 0;
    let n = 0;
    const x = p % width;
    const y = (p - x) / width;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
        sum += score[ny * width + nx]!;
        n++;
      }
    }
    mask[p] = (1 - SMOOTHING) * score[p]! + (SMOOTHING * sum) / n > 0 ? 1 : 0;
  }
  return mask;
}

/** The mean colours of the mask's most common bins. */
function productPalette(image: RgbaImage, mask: Uint8Array, bins: Uint16Array): Array<[number, number, number]> {
  const sums = new Map<number, [number, number, number, number]>();
  for (let p = 0; p < mask.length; p++) {
    if (!mask[p]) continue;
    const entry = sums.get(bins[p]!) ?? [0, 0, 0, 0];
    entry[0]++;
    for (let c = 0; c < 3; c++) entry[c + 1]! += image.data[p * 4 + c]!;
    sums.set(bins[p]!, entry);
  }
  return [...sums.values()]
    .sort((a, b) => b[0] - a[0])
    .slice(0, PALETTE_SIZE)
    .map(([n, r, g, b]) => [r / n, g / n, b / n]);
}

/**
 * Whether pixel p is a mix of a product colour F and the local background B with at least half of F: its colour
 * C = B + a·(F − B) with a ≥ ½, up to MIX_RESIDUAL. B is the mean of the ring of pixels RING away that are not
 * `notBackground`.
 */
function mostlyProduct(image: RgbaImage, p: number, palette: Array<[number, number, number]>, notBackground: (q: number) => boolean): boolean {
  const { data, width, height } = image;
  const x = p % width;
  const y = (p - x) / width;
  let r = 0, g = 0, b = 0, n = 0;
  for (let dy = -RING; dy <= RING; dy++) {
    for (let dx = -RING; dx <= RING; dx++) {
      if (Math.max(Math.abs(dx), Math.abs(dy)) < RING) continue;
      const nx = x + dx;
      const ny = y + dy;
      if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
      const q = ny * width + nx;
      if (notBackground(q)) continue;
      r += data[q * 4]!;
      g += data[q * 4 + 1]!;
      b += data[q * 4 + 2]!;
      n++;
    }
  }
  if (n === 0) return false;
  // Scalars only: this runs for every pixel of a picture (addThinChains).
  const cr = data[p * 4]! - r / n;
  const cg = data[p * 4 + 1]! - g / n;
  const cb = data[p * 4 + 2]! - b / n;
  let bestResidual2 = Infinity;
  let bestShare = 0;
  for (const front of palette) {
    const dr = front[0] - r / n;
    const dg = front[1] - g / n;
    const db = front[2] - b / n;
    const length2 = dr * dr + dg * dg + db * db;
    if (length2 < MIN_CONTRAST * MIN_CONTRAST) continue;
    const share = Math.max(0, Math.min(1, (cr * dr + cg * dg + cb * db) / length2));
    const er = cr - share * dr;
    const eg = cg - share * dg;
    const eb = cb - share * db;
    const residual2 = er * er + eg * eg + eb * eb;
    if (residual2 < bestResidual2) {
      bestResidual2 = residual2;
      bestShare = share;
    }
  }
  return bestResidual2 <= MIX_RESIDUAL * MIX_RESIDUAL && bestShare >= 0.5;
}

/**
 * The pieces of `candidates` that reach the network's confident region (through gaps of up to GAP pixels), grown
 * into the mixed pixels around them that are at least half product.
 */
function keepAndGrow(image: RgbaImage, network: Uint8Array, candidates: Uint8Array, palette: Array<[number, number, number]>): Uint8Array {
  const { width, height } = image;
  const count = width * height;
  const kept = new Uint8Array(count);
  const queue: number[] = [];
  for (let p = 0; p < count; p++) {
    if (candidates[p] && network[p]! >= SEED) {
      kept[p] = 1;
      queue.push(p);
    }
  }
  // Reach across gaps: walk the candidates dilated by GAP from the confident pixels, and keep the candidates reached.
  const near = new Uint8Array(count);
  for (let p = 0; p < count; p++) if (!candidates[p] && anyWithin(p, GAP, width, height, (q) => candidates[q] === 1)) near[p] = 1;
  const reached = new Uint8Array(count);
  const walk = [...queue];
  for (const p of walk) reached[p] = 1;
  while (walk.length > 0) {
    const p = walk.pop()!;
    for (const q of neighbours8(p, width, count)) {
      if (reached[q] || (!candidates[q] && !near[q])) continue;
      reached[q] = 1;
      walk.push(q);
    }
  }
  for (let p = 0; p < count; p++) {
    if (candidates[p] && reached[p] && !kept[p]) {
      kept[p] = 1;
      queue.push(p);
    }
  }
  const notBackground = (q: number) => kept[q] === 1 || candidates[q] === 1;
  for (let head = 0; head < queue.length; head++) {
    for (const q of neighbours8(queue[head]!, width, count)) {
      if (kept[q] || !(candidates[q] || mostlyProduct(image, q, palette, notBackground))) continue;
      kept[q] = 1;
      queue.push(q);
    }
  }
  return kept;
}

/** The pieces of the mask's outside, and which of them reach the picture's border (the rest are enclosed holes). */
function outsidePieces(mask: Uint8Array, width: number): { labels: Int32Array; sizes: number[]; open: Set<number> } {
  const count = mask.length;
  const outside = new Uint8Array(count);
  for (let p = 0; p < count; p++) outside[p] = mask[p] ? 0 : 1;
  const { labels, sizes } = pieces(outside, width);
  const open = new Set<number>();
  for (let p = 0; p < count; p++) {
    const x = p % width;
    if (labels[p] && (x === 0 || x === width - 1 || p < width || p >= count - width)) open.add(labels[p]!);
  }
  return { labels, sizes, open };
}

/**
 * Fills the small enclosed holes of a garment or a figure: the anti-aliased rim of a print, whose mixed colours are
 * neither the print's nor the fabric's. A jewel's holes are real (a ring's inside) and stay.
 */
function fillSmallHoles(mask: Uint8Array, width: number): void {
  const count = mask.length;
  const { labels, sizes, open: touchesBorder } = outsidePieces(mask, width);
  let productSize = 0;
  for (let p = 0; p < count; p++) productSize += mask[p]!;
  for (let p = 0; p < count; p++) {
    const label = labels[p]!;
    if (label && !touchesBorder.has(label) && sizes[label]! < HOLE_SHARE * productSize) mask[p] = 1;
  }
}

/**
 * Jewelry: an enclosed hole is the background showing through (a ring's inside) when its colours are the
 * background's; a hole of colours the background around the product does not have is a stone set in the jewel, and is
 * filled. A colour is the background's when its histogram bin holds at least STONE_BIN_SHARE of the background that
 * reaches the picture's border.
 */
function fillStones(mask: Uint8Array, bins: Uint16Array, width: number): void {
  const count = mask.length;
  const { labels, sizes, open } = outsidePieces(mask, width);
  const background = new Float64Array(LEVELS ** 3);
  let total = 0;
  for (let p = 0; p < count; p++) {
    if (!labels[p] || !open.has(labels[p]!)) continue;
    background[bins[p]!] = background[bins[p]!]! + 1;
    total++;
  }
  const foreign = new Map<number, number>();
  for (let p = 0; p < count; p++) {
    const label = labels[p]!;
    if (!label || open.has(label)) continue;
    if (background[bins[p]!]! < STONE_BIN_SHARE * total) foreign.set(label, (foreign.get(label) ?? 0) + 1);
  }
  for (let p = 0; p < count; p++) {
    const label = labels[p]!;
    if (label && !open.has(label) && (foreign.get(label) ?? 0) > sizes[label]! / 2) mask[p] = 1;
  }
}

/**
 * Jewelry: a chain the network did not see at all (no piece of it reaches the confident region). Its pixels are mixes
 * of the product's colours and the background around them; a chain is such a piece that is long (at least
 * CHAIN_LENGTH of the picture's short side) and thin (at most CHAIN_WIDTH pixels wide on average). Water drops,
 * highlights and fibres of the background's own are short or wide, and stay out.
 */
function addThinChains(image: RgbaImage, kept: Uint8Array, palette: Array<[number, number, number]>): void {
  const { width, height } = image;
  const count = width * height;
  const mixed = new Uint8Array(count);
  const isKept = (q: number) => kept[q] === 1;
  for (let p = 0; p < count; p++) if (!kept[p] && mostlyProduct(image, p, palette, isKept)) mixed[p] = 1;
  const seen = new Uint8Array(count);
  for (let start = 0; start < count; start++) {
    if (!mixed[start] || seen[start]) continue;
    const piece = [start];
    seen[start] = 1;
    let left = width, right = 0, top = height, bottom = 0;
    for (let head = 0; head < piece.length; head++) {
      const p = piece[head]!;
      const x = p % width;
      const y = (p - x) / width;
      left = Math.min(left, x);
      right = Math.max(right, x);
      top = Math.min(top, y);
      bottom = Math.max(bottom, y);
      for (const q of neighbours8(p, width, count)) {
        if (!mixed[q] || seen[q]) continue;
        seen[q] = 1;
        piece.push(q);
      }
    }
    const length = Math.max(right - left, bottom - top) + 1;
    if (length >= CHAIN_LENGTH * Math.min(width, height) && piece.length / length <= CHAIN_WIDTH) for (const p of piece) kept[p] = 1;
  }
}

/**
 * One pixel of feather, outwards: the mask's pixels are at least half product and the photo's own anti-aliasing is in
 * their colours, so they stay opaque; the background pixels touching them get a faint share (at most a quarter).
 */
function featherOutwards(mask: Uint8Array, width: number, height: number): Uint8Array {
  const alpha = new Uint8Array(mask.length);
  for (let p = 0; p < mask.length; p++) {
    if (mask[p]) {
      alpha[p] = 255;
      continue;
    }
    const x = p % width;
    const y = (p - x) / width;
    let inside = 0;
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx >= 0 && ny >= 0 && nx < width && ny < height) inside += mask[ny * width + nx]!;
      }
    }
    alpha[p] = Math.round((255 * inside) / 9 / 4);
  }
  return alpha;
}

/** The product's opacity per pixel (0–255): the network's probability map refined by the photo's colours. */
export function refineNetworkMask(image: RgbaImage, network: Uint8Array, kind: CutoutKind): Uint8Array {
  const { data, width, height } = image;
  const count = width * height;
  const bins = new Uint16Array(count);
  for (let p = 0; p < count; p++) {
    const i = p * 4;
    bins[p] = ((data[i]! >> LEVEL_SHIFT) * LEVELS + (data[i + 1]! >> LEVEL_SHIFT)) * LEVELS + (data[i + 2]! >> LEVEL_SHIFT);
  }
  let weights = networkWeights(image, network, kind);
  let candidates: Uint8Array = new Uint8Array(count);
  for (let round = 0; round < ROUNDS; round++) {
    candidates = classify(image, network, bins, weights);
    const product = new Float32Array(count);
    const background = new Float32Array(count);
    for (let p = 0; p < count; p++) {
      product[p] = candidates[p]!;
      background[p] = 1 - candidates[p]!;
    }
    weights = { product, background };
  }
  const palette = productPalette(image, candidates, bins);
  const kept = keepAndGrow(image, network, candidates, palette);
  if (kind === 'jewelry') {
    addThinChains(image, kept, productPalette(image, kept, bins));
    fillStones(kept, bins, width);
  }
  if (kind !== 'jewelry') fillSmallHoles(kept, width);
  // Transparent pixels (an already cut-out PNG) are never product.
  for (let p = 0; p < count; p++) if (data[p * 4 + 3]! < 128) kept[p] = 0;
  return featherOutwards(kept, width, height);
}

/** The network's probability from which a pixel near the outline counts as a sure "product" … */
const SURE_PRODUCT = 230;
/** … and up to which as a sure "background"; */
const SURE_BACKGROUND = 25;
/** an outline pixel is sure when both are within this many pixels of it (the network saw an edge there). */
const SURE_RADIUS = 3;

/**
 * The share of the product's outline (mask pixels with a background 4-neighbour) where the network was unsure: no
 * sure product and sure background within SURE_RADIUS. A chain found by its colours, a piece the network half-saw, an
 * edge the refinement moved far from the network's: each is outline the network did not vouch for.
 */
export function unsureOutlineShare(alpha: Uint8Array, network: Uint8Array, width: number, height: number): number {
  let outline = 0;
  let unsure = 0;
  const count = width * height;
  for (let p = 0; p < count; p++) {
    if (alpha[p]! < 128) continue;
    const x = p % width;
    const edge = (x > 0 && alpha[p - 1]! < 128) || (x < width - 1 && alpha[p + 1]! < 128) || (p >= width && alpha[p - width]! < 128) || (p < count - width && alpha[p + width]! < 128);
    if (!edge) continue;
    outline++;
    const sureProduct = anyWithin(p, SURE_RADIUS, width, height, (q) => network[q]! >= SURE_PRODUCT);
    if (!sureProduct || !anyWithin(p, SURE_RADIUS, width, height, (q) => network[q]! <= SURE_BACKGROUND)) unsure++;
  }
  return outline === 0 ? 1 : unsure / outline;
}

/** The product's opacity per pixel of a photo on a busy background, and how much of its outline the network was unsure of. */
export interface NetworkCutout {
  /** 0–255 per pixel of the photo. */
  alpha: Uint8Array;
  /** unsureOutlineShare, 0–1, measured at the refinement's scale. */
  unsureOutline: number;
}

/**
 * The network's mask refined by the photo's colours, at up to REFINE_MAX_SIDE. When the refinement keeps nothing of
 * what the network found (its colours did not tell the product from the background), the network's own mask is the
 * answer: the network found a product, so the cutout does not claim there is none.
 */
export async function networkCutout(image: RgbaImage, kind: CutoutKind): Promise<NetworkCutout> {
  const scale = Math.min(1, REFINE_MAX_SIDE / Math.max(image.width, image.height));
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const small = scale === 1 ? image : await toRgba(openRgba(image).resize(width, height, { fit: 'fill', kernel: 'lanczos3' }));
  const network = await segmentForeground(small);
  let alpha = refineNetworkMask(small, network, kind);
  if (!alpha.some((value) => value >= 128)) alpha = featherOutwards(network.map((value) => (value >= SEED ? 1 : 0)), width, height);
  const unsureOutline = unsureOutlineShare(alpha, network, width, height);
  return { alpha: scale === 1 ? alpha : await resizePlane(alpha, small, image.width, image.height), unsureOutline };
}
