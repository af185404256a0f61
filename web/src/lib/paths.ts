// Every screen's address, named once: the route table (web/src/app) and every link and navigation use these, so a
// path is written in one place. Parameterised addresses are built by the helpers below.

export const paths = {
  home: '/',
  auth: '/auth',
  dashboard: '/dashboard',
  /** The short sidebar's video screen (the same screen as the studio's Videos). */
  generate: '/generate',
  comingSoon: '/coming-soon',
  billing: '/dashboard/billing',
  usage: '/dashboard/usage',
  prices: '/dashboard/prices',
  settings: '/settings',
  api: '/api',
  community: '/community',
  support: '/support',
  supportGuides: '/support/guides',
  /** "How to connect a provider": where the Preview note under a result links. */
  providersGuide: '/support/guides/providers',
  /** Not a screen: the prefix of the studio's screens. */
  studio: '/studio',
  clothing: '/studio/clothing',
  models: '/studio/models',
  generations: '/studio/generations',
  imageGeneration: '/studio/generate/image-generation',
  videoGeneration: '/studio/generate/video-generation',
  batchGeneration: '/studio/generate/batch-generation',
  edit: '/studio/generate/edit',
  upscale: '/studio/generate/upscale',
  packshot: '/studio/generate/packshot',
  /** Public pages a visitor reaches from the landing page without an account. */
  demo: '/book-demo',
  privacy: '/privacy',
  terms: '/terms',
} as const;

/** Sign-up (not sign-in): where the landing page's "Get Started FREE" leads. */
export const signUpPath = `${paths.auth}?mode=signup`;

/** The demo page's contact form. */
export const demoContactPath = `${paths.demo}#contact`;

/** Billing with an amount of credits already chosen (a landing page pack). */
export const billingWithCredits = (credits: number) => `${paths.billing}?credits=${credits}`;

/** Sign-up, then on to `next` (a path of this site). */
export const signUpThen = (next: string) => `${paths.auth}?mode=signup&next=${encodeURIComponent(next)}`;

/** The video screen showing one job (the link of the "video is ready" toast). */
export const videoJobPath = (jobId: string) => `${paths.videoGeneration}?job=${encodeURIComponent(jobId)}`;

/** Settings opened at one of its sections. */
export const settingsSection = (section: 'account' | 'billing') => `${paths.settings}#${section}`;

/** The Edit screen at its list of understood instructions. */
export const editInstructionsPath = `${paths.edit}#edit-instructions`;
