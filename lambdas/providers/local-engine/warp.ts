// Draws a transformed RGBA layer over an RGB frame in plain JS: inverse-mapped bilinear sampling of premultiplied
// pixels with sub-pixel positions (no jitter from rounding), over only the layer's bounding box. Same input, same
// bytes: no threads, no libraries.
import type { RgbaImage } from './raster.js';

/** Premultiplied RGBA as floats, ready for sampling. */
export interface Layer {
  pixels: Float32Array;
  width: number;
  height: number;
}

/** Layer pixel (x, y) goes to frame (a·x + b·y + e, c·x + d·y + f); coordinates of pixel edges, not centres. */
export interface Affine {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  f: number;
}

export interface RgbFrame {
  data: Buffer;
  width: number;
  height: number;
}

export function toLayer(image: RgbaImage): Layer {
  const pixels = new Float32Array(image.data.length);
  for (let i = 0; i < image.data.length; i += 4) {
    const alpha = image.data[i + 3]! / 255;
    pixels[i] = image.data[i]! * alpha;
    pixels[i + 1] = image.data[i + 1]! * alpha;
    pixels[i + 2] = image.data[i + 2]! * alpha;
    pixels[i + 3] = alpha;
  }
  return { pixels, width: image.width, height: image.height };
}

/**
 * `light`, when given, multiplies the colour of each layer column (shading and a highlight that moves across a
 * turning product); the result never exceeds white.
 */
export function drawLayer(frame: RgbFrame, layer: Layer, { a, b, c, d, e, f }: Affine, light?: Float32Array): void {
  const determinant = a * d - b * c;
  if (Math.abs(determinant) < 1e-9) return; // edge-on: nothing to see
  // Inverse map: layer = M⁻¹ · (frame − t).
  const ia = d / determinant;
  const ib = -b / determinant;
  const ic = -c / determinant;
  const id = a / determinant;
  const { width: lw, height: lh, pixels } = layer;
  const xs = [e, a * lw + e, b * lh + e, a * lw + b * lh + e];
  const ys = [f, c * lw + f, d * lh + f, c * lw + d * lh + f];
  const x0 = Math.max(0, Math.floor(Math.min(...xs)));
  const x1 = Math.min(frame.width - 1, Math.ceil(Math.max(...xs)));
  const y0 = Math.max(0, Math.floor(Math.min(...ys)));
  const y1 = Math.min(frame.height - 1, Math.ceil(Math.max(...ys)));
  const out = frame.data;
  for (let y = y0; y <= y1; y++) {
    // Sample at pixel centres; u, v are layer coordinates of pixel centres (−0.5 turns them into sample indices).
    const dy = y + 0.5 - f;
    let u = ia * (x0 + 0.5 - e) + ib * dy - 0.5;
    let v = ic * (x0 + 0.5 - e) + id * dy - 0.5;
    let o = (y * frame.width + x0) * 3;
    for (let x = x0; x <= x1; x++, u += ia, v += ic, o += 3) {
      if (u <= -1 || v <= -1 || u >= lw || v >= lh) continue;
      const ux = Math.floor(u);
      const vy = Math.floor(v);
      const fx = u - ux;
      const fy = v - vy;
      let r = 0;
      let g = 0;
      let bl = 0;
      let al = 0;
      if (ux >= 0 && vy >= 0 && ux < lw - 1 && vy < lh - 1) {
        // Inside the layer: the four neighbours, unrolled (the hot path).
        const s00 = (vy * lw + ux) * 4;
        const s10 = s00 + 4;
        const s01 = s00 + lw * 4;
        const s11 = s01 + 4;
        const w00 = (1 - fx) * (1 - fy);
        const w10 = fx * (1 - fy);
        const w01 = (1 - fx) * fy;
        const w11 = fx * fy;
        al = w00 * pixels[s00 + 3]! + w10 * pixels[s10 + 3]! + w01 * pixels[s01 + 3]! + w11 * pixels[s11 + 3]!;
        if (al === 0) continue;
        r = w00 * pixels[s00]! + w10 * pixels[s10]! + w01 * pixels[s01]! + w11 * pixels[s11]!;
        g = w00 * pixels[s00 + 1]! + w10 * pixels[s10 + 1]! + w01 * pixels[s01 + 1]! + w11 * pixels[s11 + 1]!;
        bl = w00 * pixels[s00 + 2]! + w10 * pixels[s10 + 2]! + w01 * pixels[s01 + 2]! + w11 * pixels[s11 + 2]!;
      } else {
        // On the layer's edge: neighbours outside it count as transparent.
        for (let k = 0; k < 4; k++) {
          const sx = ux + (k & 1);
          const sy = vy + (k >> 1);
          if (sx < 0 || sy < 0 || sx >= lw || sy >= lh) continue;
          const w = (k & 1 ? fx : 1 - fx) * (k >> 1 ? fy : 1 - fy);
          const s = (sy * lw + sx) * 4;
          r += w * pixels[s]!;
          g += w * pixels[s + 1]!;
          bl += w * pixels[s + 2]!;
          al += w * pixels[s + 3]!;
        }
      }
      if (al === 0) continue;
      if (light) {
        const gain = light[Math.min(lw - 1, Math.max(0, Math.round(u)))]!;
        const ceiling = 255 * al;
        r = Math.min(ceiling, r * gain);
        g = Math.min(ceiling, g * gain);
        bl = Math.min(ceiling, bl * gain);
      }
      const keep = 1 - al;
      // Values are ≥ 0, so adding ½ and truncating rounds (faster than Math.round in this loop).
      out[o] = (r + keep * out[o]! + 0.5) | 0;
      out[o + 1] = (g + keep * out[o + 1]! + 0.5) | 0;
      out[o + 2] = (bl + keep * out[o + 2]! + 0.5) | 0;
    }
  }
}
