// The pricing tier of one on-model photo: the face-reference tier when the request names a saved model with a
// reference portrait and this deployment's on-model provider charges more for it (FASHN's face_reference), else the
// route's own tier (image generation or batch photo). The choice follows from the request's body and the saved model
// it names, so the charge stays bound to the request like every charge.
import { FACE_REFERENCE_TIER, faceReferenceTierApplies, type PricingTierId } from '../../contracts/catalog.js';
import type { ModelSnapshot } from '../../data/generations-repo.js';
import { readProviderChoice } from '../../providers/config.js';

export function onModelTier(routeTier: PricingTierId, model: ModelSnapshot | undefined, env: NodeJS.ProcessEnv = process.env): PricingTierId {
  return model?.portrait && faceReferenceTierApplies(readProviderChoice(env, 'PROVIDER_IMAGE')) ? FACE_REFERENCE_TIER : routeTier;
}
