// Abandoned uploads against the twin: an upload is stored tagged pending, tagged kept when a route takes it, and the
// twin's sweep (the cloud's lifecycle rule, which s3rver lacks) removes what is still pending after a day, never what
// was registered, nor anything younger.
import { describe, expect, inject, it } from 'vitest';
import { LOCAL_CREDENTIALS } from '../../lib/local/s3-local.js';
import { sweepAbandonedUploads } from '../../lib/local/upload-sweep.js';
import { api } from '../support/api.js';
import { listKeys, productJpeg, twinS3, uploadFile, uploadTag } from '../support/uploads.js';
import { createUser } from '../support/users.js';

const twin = inject('twin');
const s3 = twinS3(twin);
const clothingBucket = twin.env.BUCKET_CLOTHING_IMAGES!;
const resultsBucket = twin.env.BUCKET_RESULTS!;
const HOUR = 3600_000;

describe('uploads never registered or used', () => {
  it('are removed by the sweep a day later; registered ones and younger ones stay', async () => {
    const user = await createUser(twin);
    const bytes = await productJpeg();
    const registered = await uploadFile(twin, user, '/clothing-items/upload-url', bytes);
    const abandoned = await uploadFile(twin, user, '/clothing-items/upload-url', bytes);
    const abandonedSource = await uploadFile(twin, user, '/generation-uploads/upload-url', bytes);
    expect(await uploadTag(s3, clothingBucket, registered)).toBe('pending');
    expect(await uploadTag(s3, resultsBucket, abandonedSource)).toBe('pending');

    const item = await api(twin.apiUrl, 'POST', '/clothing-items', { user, body: { imageKey: registered, name: 'Kept dress' } });
    expect(item.status).toBe(201);
    expect(await uploadTag(s3, clothingBucket, registered)).toBe('kept');

    const sweep = (hoursLater: number) =>
      sweepAbandonedUploads({
        endpoint: twin.env.AWS_ENDPOINT_URL_S3!,
        region: twin.region,
        credentials: LOCAL_CREDENTIALS,
        buckets: [clothingBucket, resultsBucket],
        prefixes: [`${user.sub}/`],
        now: Date.now() + hoursLater * HOUR,
      });

    // 23 hours on: nothing is old enough.
    expect(await sweep(23)).toEqual([]);
    // The two clothing uploads, and the registered one's thumbnail (made by its check, never tagged pending).
    const thumbnail = `${user.sub}/thumbnails/${item.body.id}.webp`;
    expect((await listKeys(s3, clothingBucket, `${user.sub}/`)).sort()).toEqual([registered, abandoned, thumbnail].sort());

    // 25 hours on: the two uploads nobody took are gone, the registered one stays and still shows.
    expect((await sweep(25)).map(({ key }) => key).sort()).toEqual([abandoned, abandonedSource].sort());
    expect((await listKeys(s3, clothingBucket, `${user.sub}/`)).sort()).toEqual([registered, thumbnail].sort());
    expect(await listKeys(s3, resultsBucket, `${user.sub}/`)).toEqual([]);
    const listed = await api(twin.apiUrl, 'GET', '/clothing-items', { user });
    const shown = await fetch(listed.body.items[0].signed_url);
    expect(shown.status).toBe(200);
  });
});
