// What a packshot is called in the pickers: its product, the marketplace by its name and its size, never the preset's
// id ("Packshot google-shopping").
import { describe, expect, it } from 'vitest';
import { derivedTitle, packshotName, recordedTitle } from '../../lambdas/domain/generation/titles.js';

const row = (operation: 'packshot' | 'batch', params: Record<string, unknown>, size = { width: 1500, height: 1500 }) =>
  recordedTitle({ operation, params, model: null, ...size } as never);

describe('picker titles of packshots', () => {
  it('names a packshot row stored without a title by its marketplace\'s name and size', () => {
    expect(row('packshot', { marketplace: 'google-shopping' })).toBe('Packshot for Google Shopping · 1500×1500');
    expect(row('packshot', { marketplace: 'amazon', clothingItemName: 'Navy Surf Club tee' }, { width: 2000, height: 2000 })).toBe(
      'Navy Surf Club tee · Packshot for Amazon main image · 2000×2000',
    );
    expect(row('packshot', { marketplace: 'custom' }, { width: 1200, height: 1600 })).toBe('Packshot · 1200×1600');
  });

  it('names a batch packshot by its marketplace\'s name', () => {
    expect(row('batch', { clothingItemName: 'Emerald drop necklace', cameraAngle: 'Packshot', marketplace: 'zalando', width: 1801, height: 2600 })).toBe(
      'Emerald drop necklace · Packshot · Zalando · 1801×2600',
    );
  });

  it('names a new packshot after the picture it was made from', () => {
    expect(derivedTitle('Navy Surf Club tee · Maya · 2K 9:16', `${packshotName('etsy')} · 3000×2250`)).toBe(
      'Navy Surf Club tee · Maya · 2K 9:16 · Packshot for Etsy · 3000×2250',
    );
  });
});
