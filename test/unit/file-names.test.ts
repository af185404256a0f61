// Download file names (contracts/file-names.ts): one function names every file a seller saves, after its product,
// its kind and its size or marketplace, with the extension of its bytes; names are unique within a zip.
import { describe, expect, it } from 'vitest';
import { downloadFileName, generationFileName, uniqueFileNames, videoFileName } from '../../lambdas/contracts/file-names.js';
import type { Generation } from '../../lambdas/contracts/generations.js';

type Named = Pick<Generation, 'operation' | 'params' | 'width' | 'height' | 'result_content_type'>;
const row = (operation: Named['operation'], params: Named['params'], width: number, height: number, type = 'image/png'): Named => ({
  operation,
  params,
  width,
  height,
  result_content_type: type,
});

describe('download file names', () => {
  it('names a packshot after its product, marketplace and size, as a JPEG (the issue: never image-xxxx.png)', () => {
    const packshot = row('packshot', { marketplace: 'amazon', productName: 'Navy Surf Club Tee' }, 2000, 2000, 'image/jpeg');
    expect(generationFileName(packshot)).toBe('navy-surf-club-tee-amazon-2000.jpg');
  });

  it('names every kind of result after its product, kind and size', () => {
    expect(
      [
        row('on-model', { clothingItemName: 'Red polka dot dress', imageSize: '2k', aspectRatio: '1:1' }, 2048, 2048),
        row('batch', { clothingItemName: 'Linen shirt', cameraAngle: 'Full Body' }, 1440, 2560),
        row('batch', { clothingItemName: 'Linen shirt', cameraAngle: 'Packshot', marketplace: 'google-shopping' }, 1500, 1500, 'image/jpeg'),
        row('edit', { productName: 'Émeraude necklace' }, 1440, 2560),
        row('upscale', { productName: 'Navy Surf Club tee' }, 2880, 5120),
        row('on-model', {}, 720, 1280),
        row('video', { productName: 'Navy Surf Club tee', duration: 8, output_count: 3, output: 2 }, 720, 720, 'video/mp4'),
      ].map(generationFileName),
    ).toEqual([
      'red-polka-dot-dress-on-model-2048.png',
      'linen-shirt-full-body-1440x2560.png',
      'linen-shirt-google-shopping-1500.jpg',
      'emeraude-necklace-edited-1440x2560.png',
      'navy-surf-club-tee-upscaled-2880x5120.png',
      'modelloop-on-model-720x1280.png',
      'navy-surf-club-tee-video-2-720-8s.mp4',
    ]);
  });

  it('names a job’s videos as their History rows download them', () => {
    const job = { product_name: 'Navy Surf Club tee', duration: 5, output_count: 1 };
    expect(videoFileName(job, { index: 0, width: 720, height: 1280 })).toBe('navy-surf-club-tee-video-720x1280-5s.mp4');
    expect(videoFileName({ ...job, product_name: null, output_count: 3 }, { index: 2, width: 1280, height: 720 })).toBe('modelloop-video-3-1280x720-5s.mp4');
  });

  it('takes the extension from the bytes’ type and keeps names unique within a zip', () => {
    expect(downloadFileName({ product: 'Tee', kind: 'front', contentType: 'image/webp' })).toBe('tee-front.webp');
    expect(uniqueFileNames(['tee-front-720x1280.png', 'tee-front-720x1280.png', 'tee-amazon-2000.jpg', 'tee-front-720x1280.png'])).toEqual([
      'tee-front-720x1280.png',
      'tee-front-720x1280-2.png',
      'tee-amazon-2000.jpg',
      'tee-front-720x1280-3.png',
    ]);
  });
});
