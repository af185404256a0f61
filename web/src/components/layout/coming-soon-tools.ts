/** The tools announced as coming soon (not built yet; named so sellers know what is planned), listed in the dashboard sidebar and on /coming-soon. */
export const COMING_SOON_TOOLS = [
  'AI Clothing Try-On',
  'AI Fashion Model Generator',
  'Pose Generator',
  'Product Avatar',
  'AI Avatar Video Generator',
] as const;

export const comingSoonMessage = (tool: string) => `${tool} will be available soon.`;
