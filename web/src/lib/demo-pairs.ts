/** Before/after examples shown on the landing page and the sign-in screen (drawn for ModelLoop, in web/public/demo). */
export interface DemoPair {
  category: 'Lehenga' | 'Jewelry';
  input: string;
  output: string;
  inputAlt: string;
  outputAlt: string;
}

export const DEMO_PAIRS: readonly DemoPair[] = [
  {
    category: 'Lehenga',
    input: '/demo/lehenga-red-before.svg',
    output: '/demo/lehenga-red-after.svg',
    inputAlt: 'Flat-lay photo of a red embroidered lehenga',
    outputAlt: 'AI model wearing the red embroidered lehenga',
  },
  {
    category: 'Lehenga',
    input: '/demo/lehenga-teal-before.svg',
    output: '/demo/lehenga-teal-after.svg',
    inputAlt: 'Flat-lay photo of a teal lehenga with gold embroidery',
    outputAlt: 'AI model wearing the teal lehenga',
  },
  {
    category: 'Jewelry',
    input: '/demo/jewelry-before.svg',
    output: '/demo/jewelry-after.svg',
    inputAlt: 'Gold and emerald necklace on a display stand',
    outputAlt: 'AI model wearing the gold and emerald necklace',
  },
];

/** The studio's own looping clip (scripts/demo-video.ts renders it with the local engine; the build ships it). */
export const DEMO_VIDEO = '/demo/demo-loop.mp4';
