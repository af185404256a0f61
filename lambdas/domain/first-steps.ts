// A new seller's first hour (the dashboard's four steps): what the account's own records say was done. Read only:
// nothing is written to remember a step, so it is as true for an account made before the steps existed.
import { FIRST_STEPS, type FirstStep, type FirstStepsResponse } from '../contracts/api.js';
import { BATCH_PACKSHOT_SHOT } from '../contracts/catalog.js';
import { hasAnyItem } from '../data/clothing-repo.js';
import { scanCompleteKinds, type MadeKind } from '../data/generations-repo.js';

/** The step a complete picture or video is, if any: a batch's photos are on-model photos, its Packshot shots packshots. */
function stepOf({ operation, params }: MadeKind): FirstStep | undefined {
  if (operation === 'on-model') return 'on-model-photo';
  if (operation === 'batch') return params?.cameraAngle === BATCH_PACKSHOT_SHOT ? 'packshot' : 'on-model-photo';
  if (operation === 'packshot') return 'packshot';
  if (operation === 'video') return 'video';
  return undefined;
}

export async function firstSteps(userId: string): Promise<FirstStepsResponse> {
  const done = new Set<FirstStep>();
  const made = ['on-model-photo', 'packshot', 'video'] as const;
  const [product] = await Promise.all([
    hasAnyItem(userId),
    // Stops at the first page that completes the three, so an account with a long history reads little of it.
    scanCompleteKinds(userId, (kind) => {
      const step = stepOf(kind);
      if (step) done.add(step);
      return made.every((each) => done.has(each));
    }),
  ]);
  if (product) done.add('product');
  return { done: FIRST_STEPS.filter((step) => done.has(step)) };
}
