// Product photos drawn locally with sharp (nothing binary is checked in): the demo studio's clothing items and the
// product image of the sample events. The same name always gives the same bytes.

export interface ProductDrawing {
  name: string;
  description: string;
  /** SVG shapes on a 600×700 canvas. */
  shapes: string;
}

const garment = (fill: string, path: string, extra = '') => `<path d="${path}" fill="${fill}"/>${extra}`;

export const DEMO_PRODUCTS: readonly ProductDrawing[] = [
  {
    name: 'Red logo T-shirt',
    description: 'Cotton crew-neck T-shirt with a round white print.',
    shapes: garment('#d01820', 'M150 100 L250 60 L350 60 L450 100 L540 220 L460 260 L430 220 L430 640 L170 640 L170 220 L140 260 L60 220 Z', '<circle cx="300" cy="300" r="60" fill="#ffffff"/>'),
  },
  {
    name: 'Navy hoodie',
    description: 'Heavyweight hoodie with a kangaroo pocket.',
    shapes: garment('#1f2f5c', 'M170 120 Q300 30 430 120 L540 300 L470 330 L440 270 L440 650 L160 650 L160 270 L130 330 L60 300 Z', '<rect x="220" y="430" width="160" height="90" rx="20" fill="#2c4280"/><path d="M250 110 Q300 190 350 110" stroke="#ffffff" stroke-width="8" fill="none"/>'),
  },
  {
    name: 'Yellow summer dress',
    description: 'Sleeveless A-line dress in mustard linen.',
    shapes: garment('#e0a81c', 'M240 60 L360 60 L380 200 L500 650 L100 650 L220 200 Z', '<rect x="225" y="230" width="150" height="22" fill="#8a5a00"/>'),
  },
  {
    name: 'Blue slim jeans',
    description: 'Five-pocket slim jeans, mid wash.',
    shapes: garment('#3b6ea8', 'M190 60 L410 60 L440 650 L320 650 L300 260 L280 650 L160 650 Z', '<rect x="190" y="60" width="220" height="30" fill="#2a5288"/>'),
  },
  {
    name: 'Green knit beanie',
    description: 'Ribbed merino beanie with a turned-up cuff.',
    shapes: garment('#2f8a4e', 'M150 420 Q150 140 300 140 Q450 140 450 420 Z', '<rect x="135" y="400" width="330" height="90" rx="16" fill="#256e3e"/><circle cx="300" cy="130" r="40" fill="#3fa862"/>'),
  },
  {
    name: 'Silver pendant necklace',
    description: 'Sterling silver chain with a teardrop pendant.',
    shapes: '<path d="M170 120 Q300 480 430 120" stroke="#9aa3ad" stroke-width="10" fill="none"/><path d="M300 296 Q260 366 300 436 Q340 366 300 296 Z" fill="#b8c2cc" stroke="#6b7580" stroke-width="6"/>',
  },
];

/** A product photo as a phone would take it: the drawing on a plain white background, JPEG. */
export async function productPhoto(product: ProductDrawing, width = 600, height = 700): Promise<Buffer> {
  const { default: sharp } = await import('sharp');
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 600 700">` +
    `<rect width="600" height="700" fill="#ffffff"/>${product.shapes}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}
