// The sample product photos `npm run providers:check` sends to every port: a T-shirt on a hanger, a flat lay and a
// necklace, drawn with sharp from SVG (nothing binary is checked in). Product-photo-like: a plain light backdrop, one
// product, soft shadow.
import sharp from 'sharp';

export interface SampleProduct {
  name: string;
  productType: 'clothing' | 'jewelry';
  photo: Buffer;
}

const jpeg = (svg: string) => sharp(Buffer.from(svg)).jpeg({ quality: 92 }).toBuffer();

const HANGER_TSHIRT = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="1200" viewBox="0 0 900 1200">
  <defs><linearGradient id="bg" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#f3f1ee"/><stop offset="1" stop-color="#e4e1dc"/></linearGradient>
  <radialGradient id="shade" cx="0.5" cy="0.4" r="0.7"><stop offset="0" stop-color="#3a6fb0"/><stop offset="1" stop-color="#24507f"/></radialGradient></defs>
  <rect width="900" height="1200" fill="url(#bg)"/>
  <path d="M450 110 q-22 0 -22 -24 q0 -24 22 -24 q22 0 22 24" fill="none" stroke="#8a8a8a" stroke-width="8"/>
  <path d="M450 110 L215 270 L685 270 Z" fill="none" stroke="#9b7b55" stroke-width="14" stroke-linejoin="round"/>
  <path d="M300 250 L400 215 Q450 260 500 215 L600 250 L760 380 L680 470 L625 420 L625 1010 L275 1010 L275 420 L220 470 L140 380 Z" fill="url(#shade)"/>
  <path d="M400 215 Q450 275 500 215" fill="none" stroke="#1c3f66" stroke-width="10"/>
  <text x="450" y="640" font-family="sans-serif" font-size="64" font-weight="700" text-anchor="middle" fill="#f4f4f4">LOOP</text>
</svg>`;

const FLAT_LAY = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="1200" viewBox="0 0 1200 1200">
  <rect width="1200" height="1200" fill="#efece6"/>
  <ellipse cx="610" cy="640" rx="380" ry="470" fill="#00000010"/>
  <path d="M430 170 L770 170 L800 300 L790 1050 L410 1050 L400 300 Z" fill="#c8b28a"/>
  <path d="M430 170 L330 330 L400 360 Z M770 170 L870 330 L800 360 Z" fill="#b9a27a"/>
  <path d="M560 170 L600 320 L640 170" fill="none" stroke="#8d7650" stroke-width="8"/>
  <g fill="#5c4a2e">${Array.from({ length: 6 }, (_, i) => `<circle cx="600" cy="${380 + i * 110}" r="11"/>`).join('')}</g>
  <rect x="455" y="560" width="110" height="120" rx="6" fill="none" stroke="#8d7650" stroke-width="6"/>
</svg>`;

const NECKLACE = `<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000" viewBox="0 0 1000 1000">
  <rect width="1000" height="1000" fill="#f6f5f3"/>
  <path d="M230 180 Q500 820 770 180" fill="none" stroke="#c9a23a" stroke-width="9"/>
  <path d="M230 180 Q500 820 770 180" fill="none" stroke="#f3dc8c" stroke-width="3" stroke-dasharray="6 10"/>
  <path d="M500 600 L455 660 L500 760 L545 660 Z" fill="#2f8f6a" stroke="#c9a23a" stroke-width="8" stroke-linejoin="round"/>
  <circle cx="485" cy="650" r="10" fill="#ffffff" opacity="0.7"/>
</svg>`;

export async function sampleProducts(): Promise<SampleProduct[]> {
  return [
    { name: 'tshirt-on-hanger', productType: 'clothing', photo: await jpeg(HANGER_TSHIRT) },
    { name: 'flat-lay-cardigan', productType: 'clothing', photo: await jpeg(FLAT_LAY) },
    { name: 'necklace', productType: 'jewelry', photo: await jpeg(NECKLACE) },
  ];
}
