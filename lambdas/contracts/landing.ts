// The constants the landing page reads (its first load holds only this module of the contracts): what a credit costs,
// the marketed packs and what they buy at a deployment's prices, and the video wait the page promises.
// catalog.ts re-exports them for everything else.

export const USD_PER_CREDIT = 0.1;

/**
 * Packs marketed on the landing page. What a pack buys ("About 50 images or 4-8 videos") is not stated here: it is
 * computed from the deployment's pricing tiers (`packAllowance`), so it is true on every deployment.
 */
export const LANDING_PACKS = [
  { name: 'Starter', credits: 50, usd: 5, features: ['HD output'], popular: false },
  { name: 'Professional', credits: 200, usd: 20, features: ['HD and 4K output', 'Priority support'], popular: true },
  { name: 'Studio', credits: 1000, usd: 100, features: ['4K output', 'Dedicated support'], popular: false },
] as const;

/**
 * What every account has, whichever pack it buys (or none): shown once under the packs, not as one pack's feature.
 * The specification lists "API access" with the Studio pack, but every account gets API keys (/api).
 */
export const EVERY_ACCOUNT_FEATURES = ['API access', 'Commercial use', 'Credits never expire'] as const;

export type VideoDuration = 5 | 8 | 16;
/** The pricing tier of a video of each duration: a video is priced per output and per duration. */
export const VIDEO_TIERS = { 5: 'video-5s', 8: 'video-8s', 16: 'video-16s' } as const satisfies Record<VideoDuration, string>;

/**
 * What `credits` buy at a deployment's prices: "About N images or A-B videos" (A at the dearest video length, B at the
 * cheapest; one number when they agree). Undefined while the tiers are unknown.
 */
export function packAllowance(credits: number, tiers: readonly { id: string; credits_cost: number }[] | undefined): string | undefined {
  const cost = (id: string) => tiers?.find((tier) => tier.id === id)?.credits_cost;
  const image = cost('image-generation');
  const videos = Object.values(VIDEO_TIERS)
    .map(cost)
    .filter((value): value is number => typeof value === 'number' && value > 0);
  if (!image || videos.length === 0) return undefined;
  const fewest = Math.floor(credits / Math.max(...videos));
  const most = Math.floor(credits / Math.min(...videos));
  return `About ${Math.floor(credits / image)} images or ${fewest === most ? most : `${fewest}-${most}`} videos`;
}

/** The longest a video is promised to take (the progress bar's full length). */
export const VIDEO_PROGRESS_FULL_SECONDS = 300;
