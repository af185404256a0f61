// S3 keys are *_key inside the code and in new rows; the wire keeps the specification's names, and rows stored
// before the rename (image_url, video_url, thumbnail_url) are still read.
import { describe, expect, it } from 'vitest';
import { clothingItemOnWire, type ClothingItemRecord } from '../../lambdas/contracts/api.js';
import { EditImageRequest, UpscaleImageRequest } from '../../lambdas/contracts/generations.js';
import { videoJobOnWire, type DeliveredVideo } from '../../lambdas/contracts/video.js';
import { itemFromStored } from '../../lambdas/data/clothing-repo.js';
import { jobFromStored, outputFromStored, type JobItem, type StoredJob } from '../../lambdas/data/jobs-repo.js';

const item: ClothingItemRecord = {
  id: 'u1-item',
  user_id: 'u1',
  name: 'Red tee',
  description: null,
  image_key: 'u1/123-abc.jpg',
  file_size_bytes: 1000,
  mime_type: 'image/jpeg',
  is_deleted: false,
  generations_count: 0,
  created_at: '2026-11-24T00:00:00.000Z',
  product_type: 'jewelry',
};

const output: DeliveredVideo = {
  index: 0,
  video_key: 'u1/videos/j1/video-1.mp4',
  thumbnail_key: 'u1/videos/j1/poster-1.jpg',
  seam_score: 0.4,
  original_seam_score: 0.4,
  repaired: false,
  duration_seconds: 5,
  width: 720,
  height: 1280,
};

const job: JobItem = {
  id: 'j1',
  user_id: 'u1',
  status: 'complete',
  prompt: 'Pivot',
  operation_name: 'arn:j1',
  video_key: output.video_key,
  error_message: null,
  created_at: '2026-11-24T00:00:00.000Z',
  updated_at: '2026-11-24T00:01:00.000Z',
  duration: 5,
  aspect_ratio: '9:16',
  output_count: 1,
  outputs: [output],
  seam_score: 0.4,
  thumbnail_key: output.thumbnail_key,
  model: 'local-engine',
  credits_charged: 1,
  credits_refunded: 0,
  source_key: 'u1/videos/j1/source.png',
  source_mime_type: 'image/png',
};

describe('clothing items', () => {
  it('answer their key as image_url, beside the signed URL', () => {
    const wire = clothingItemOnWire(item, { signed_url: 'https://signed', thumbnail_signed_url: null, url_expires_at: '2026-11-24T01:00:00.000Z' });
    expect(wire).toEqual({
      ...item,
      image_key: undefined,
      image_url: item.image_key,
      signed_url: 'https://signed',
      thumbnail_signed_url: null,
      url_expires_at: '2026-11-24T01:00:00.000Z',
    });
    expect(wire).not.toHaveProperty('image_key');
  });

  it('are read whichever name the key was stored under', () => {
    const { image_key, ...rest } = item;
    expect(itemFromStored(item)).toEqual(item);
    expect(itemFromStored({ ...rest, image_url: image_key })).toEqual(item);
  });

  it('stored before items had a product type are clothing', () => {
    const { product_type: _stored, ...older } = item;
    expect(itemFromStored(older)).toEqual({ ...item, product_type: 'clothing' });
  });
});

describe('video jobs', () => {
  it('answer their keys as video_url and thumbnail_url, the outputs too', () => {
    const { source_key: _key, source_mime_type: _type, ...shown } = job;
    const wire = videoJobOnWire(shown, 0);
    expect(wire).toMatchObject({ video_url: output.video_key, thumbnail_url: output.thumbnail_key, refundable_credits: 0 });
    expect(wire.outputs).toEqual([{ ...output, video_key: undefined, thumbnail_key: undefined, video_url: output.video_key, thumbnail_url: output.thumbnail_key }]);
    expect(JSON.stringify(wire)).not.toContain('_key');
  });

  it('are read whichever names their keys were stored under', () => {
    const { video_key, thumbnail_key, outputs, ...rest } = job;
    const legacy: StoredJob = {
      ...rest,
      video_url: video_key,
      thumbnail_url: thumbnail_key,
      outputs: outputs.map(({ video_key: video_url, thumbnail_key: thumbnail_url, ...fields }) => ({ ...fields, video_url, thumbnail_url })),
    };
    expect(jobFromStored(job)).toEqual(job);
    expect(jobFromStored(legacy)).toEqual(job);
    // Created before the rename (video_url: null), completed after it (video_key set): the key wins.
    expect(jobFromStored({ ...job, video_url: null, thumbnail_url: null })).toEqual(job);
    expect(outputFromStored(legacy.outputs[0]!)).toEqual(output);
  });
});

describe('edit and upscale requests', () => {
  it('take the wire field imageUrl and hand the handler imageRef', () => {
    expect(EditImageRequest.parse({ imageUrl: ' gen-1 ', editPrompt: 'grayscale' })).toEqual({ imageRef: 'gen-1', editPrompt: 'grayscale' });
    expect(UpscaleImageRequest.parse({ imageUrl: 'u1/generations/gen-1.png' })).toEqual({ imageRef: 'u1/generations/gen-1.png', targetResolution: '2k' });
  });
});
