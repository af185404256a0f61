// What both cutouts (cutout.ts by colour, network-cutout.ts by the network) share: the kind of product a photo shows,
// and the connected pieces of a mask.

/** What the photo shows: a garment (a hanger hook goes), jewelry (enclosed background is a hole), or any picture. */
export type CutoutKind = 'clothing' | 'jewelry' | 'any';

/** Labels 4-connected pieces of `mask` (1 = in); returns the label per pixel (0 = out) and each piece's size. */
export function pieces(mask: Uint8Array, width: number): { labels: Int32Array; sizes: number[] } {
  const count = mask.length;
  const labels = new Int32Array(count);
  const sizes = [0];
  const stack = new Int32Array(count);
  for (let start = 0; start < count; start++) {
    if (!mask[start] || labels[start]) continue;
    const label = sizes.length;
    let size = 0;
    let top = 0;
    stack[top++] = start;
    labels[start] = label;
    while (top > 0) {
      const p = stack[--top]!;
      size++;
      const x = p % width;
      const neighbours = [x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, p - width, p + width];
      for (const q of neighbours) {
        if (q < 0 || q >= count || !mask[q] || labels[q]) continue;
        labels[q] = label;
        stack[top++] = q;
      }
    }
    sizes.push(size);
  }
  return { labels, sizes };
}
