import { DEMO_VIDEO } from '@/lib/demo-pairs';

/** The studio's demo clip, looping and muted as the landing page and the demo page show it. */
export function DemoVideo({ className }: { className: string }) {
  return <video src={DEMO_VIDEO} loop muted autoPlay playsInline controls aria-label="ModelLoop demo: a product photo as a looping model video" className={className} />;
}
