// The icons of the first load (the landing page and the accordion its FAQ uses), drawn without lucide-react's runtime:
// that runtime (icon context, name casing, class merging) was 1.5 KB of the landing page's 100 KB gzip budget
// (bench/web-size.ts). The drawings are lucide's own (lucide-react 1.75.0, ISC licence), at lucide's defaults: a 24×24
// box, a 2 px round stroke in the current colour. Every other screen imports its icons from lucide-react.
import { createElement, type SVGProps } from 'react';

type Shape = readonly [tag: 'path' | 'circle' | 'rect', attributes: Readonly<Record<string, string>>];

function lineIcon(shapes: readonly Shape[]) {
  return function LineIcon(props: SVGProps<SVGSVGElement>) {
    return createElement(
      'svg',
      { xmlns: 'http://www.w3.org/2000/svg', width: 24, height: 24, viewBox: '0 0 24 24', fill: 'none', stroke: 'currentColor', strokeWidth: 2, strokeLinecap: 'round', strokeLinejoin: 'round', ...props },
      shapes.map(([tag, attributes], key) => createElement(tag, { key, ...attributes })),
    );
  };
}

export const ArrowRight = lineIcon([['path', {d: 'M5 12h14'}], ['path', {d: 'm12 5 7 7-7 7'}]]);
export const Check = lineIcon([['path', {d: 'M20 6 9 17l-5-5'}]]);
export const ChevronDown = lineIcon([['path', {d: 'm6 9 6 6 6-6'}]]);
export const Clock = lineIcon([['circle', {cx: '12', cy: '12', r: '10'}], ['path', {d: 'M12 6v6l4 2'}]]);
export const Film = lineIcon([['rect', {width: '18', height: '18', x: '3', y: '3', rx: '2'}], ['path', {d: 'M7 3v18'}], ['path', {d: 'M3 7.5h4'}], ['path', {d: 'M3 12h18'}], ['path', {d: 'M3 16.5h4'}], ['path', {d: 'M17 3v18'}], ['path', {d: 'M17 7.5h4'}], ['path', {d: 'M17 16.5h4'}]]);
export const ImageIcon = lineIcon([['rect', {width: '18', height: '18', x: '3', y: '3', rx: '2', ry: '2'}], ['circle', {cx: '9', cy: '9', r: '2'}], ['path', {d: 'm21 15-3.086-3.086a2 2 0 0 0-2.828 0L6 21'}]]);
export const LoopIcon = lineIcon([['path', {d: 'M6 16c5 0 7-8 12-8a4 4 0 0 1 0 8c-5 0-7-8-12-8a4 4 0 1 0 0 8'}]]);
export const Menu = lineIcon([['path', {d: 'M4 5h16'}], ['path', {d: 'M4 12h16'}], ['path', {d: 'M4 19h16'}]]);
export const MessageSquareQuote = lineIcon([['path', {d: 'M14 14a2 2 0 0 0 2-2V8h-2'}], ['path', {d: 'M22 17a2 2 0 0 1-2 2H6.828a2 2 0 0 0-1.414.586l-2.202 2.202A.71.71 0 0 1 2 21.286V5a2 2 0 0 1 2-2h16a2 2 0 0 1 2 2z'}], ['path', {d: 'M8 14a2 2 0 0 0 2-2V8H8'}]]);
export const Play = lineIcon([['path', {d: 'M5 5a2 2 0 0 1 3.008-1.728l11.997 6.998a2 2 0 0 1 .003 3.458l-12 7A2 2 0 0 1 5 19z'}]]);
export const ShieldCheck = lineIcon([['path', {d: 'M20 13c0 5-3.5 7.5-7.66 8.95a1 1 0 0 1-.67-.01C7.5 20.5 4 18 4 13V6a1 1 0 0 1 1-1c2 0 4.5-1.2 6.24-2.72a1.17 1.17 0 0 1 1.52 0C14.51 3.81 17 5 19 5a1 1 0 0 1 1 1z'}], ['path', {d: 'm9 12 2 2 4-4'}]]);
export const Sparkles = lineIcon([['path', {d: 'M11.017 2.814a1 1 0 0 1 1.966 0l1.051 5.558a2 2 0 0 0 1.594 1.594l5.558 1.051a1 1 0 0 1 0 1.966l-5.558 1.051a2 2 0 0 0-1.594 1.594l-1.051 5.558a1 1 0 0 1-1.966 0l-1.051-5.558a2 2 0 0 0-1.594-1.594l-5.558-1.051a1 1 0 0 1 0-1.966l5.558-1.051a2 2 0 0 0 1.594-1.594z'}], ['path', {d: 'M20 2v4'}], ['path', {d: 'M22 4h-4'}], ['circle', {cx: '4', cy: '20', r: '2'}]]);
export const Upload = lineIcon([['path', {d: 'M12 3v12'}], ['path', {d: 'm17 8-5-5-5 5'}], ['path', {d: 'M21 15v4a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2v-4'}]]);
export const UserRound = lineIcon([['circle', {cx: '12', cy: '8', r: '5'}], ['path', {d: 'M20 21a8 8 0 0 0-16 0'}]]);
export const Wand2 = lineIcon([['path', {d: 'm21.64 3.64-1.28-1.28a1.21 1.21 0 0 0-1.72 0L2.36 18.64a1.21 1.21 0 0 0 0 1.72l1.28 1.28a1.2 1.2 0 0 0 1.72 0L21.64 5.36a1.2 1.2 0 0 0 0-1.72'}], ['path', {d: 'm14 7 3 3'}], ['path', {d: 'M5 6v4'}], ['path', {d: 'M19 14v4'}], ['path', {d: 'M10 2v2'}], ['path', {d: 'M7 8H3'}], ['path', {d: 'M21 16h-4'}], ['path', {d: 'M11 3H9'}]]);
export const X = lineIcon([['path', {d: 'M18 6 6 18'}], ['path', {d: 'm6 6 12 12'}]]);

