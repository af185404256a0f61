// The name a result shows for what made it, read from the model names the adapters actually return: the Stability
// adapters call the US cross-region inference profile (`us.stability.…`), so their results are named `bedrock:us.…`
// and must still read "Stability AI", not "Amazon Bedrock".
import { describe, expect, it } from 'vitest';
import { modelDisplayName, resultEngine } from '../../lambdas/contracts/preview.js';
import { LUMA_RAY2_MODEL_ID } from '../../lambdas/providers/bedrock/luma-model.js';
import { DEFAULT_STABILITY_MODEL_IDS } from '../../lambdas/providers/bedrock/stability-models.js';
import { FASHN_PRODUCT_TO_MODEL } from '../../lambdas/providers/fashn/product-to-model.js';
import { GOOGLE_DEFAULTS } from '../../lambdas/providers/google/models.js';

describe('modelDisplayName', () => {
  it.each(Object.values(DEFAULT_STABILITY_MODEL_IDS))('names a Stability result (bedrock:%s) "Stability AI"', (modelId) => {
    expect(modelDisplayName(`bedrock:${modelId}`)).toBe('Stability AI');
    expect(resultEngine(`bedrock:${modelId}`).note).toBe('Made by Stability AI.');
  });

  it('names the other providers by their adapters\' model names', () => {
    expect(modelDisplayName(`bedrock:${LUMA_RAY2_MODEL_ID}`)).toBe('Luma Ray2');
    expect(modelDisplayName(`bedrock:us.${LUMA_RAY2_MODEL_ID}`)).toBe('Luma Ray2');
    expect(modelDisplayName('bedrock:amazon.nova-canvas-v1:0')).toBe('Amazon Bedrock');
    expect(modelDisplayName(`fashn:${FASHN_PRODUCT_TO_MODEL}`)).toBe('FASHN');
    expect(modelDisplayName(`google:${GOOGLE_DEFAULTS.videoModel}`)).toBe('Google');
    expect(modelDisplayName(`google:${GOOGLE_DEFAULTS.imageModel} 1K 774×1376`)).toBe('Google');
  });
});
