// Every GET route only reads. A user with a library item, a finished picture, a finished video and a video job whose
// execution was lost calls each GET of the route table (and poll-operation, the resume / Check Status call); the
// tables hold exactly the same rows for that user before and after. Settling stuck work is workflow-ended's and the
// reconciler's job, never a read's.
import { randomUUID } from 'node:crypto';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { ROUTES } from '../../lambdas/routes.js';
import { api } from '../support/api.js';
import { addClothingItem, onModelPhoto } from '../support/sources.js';
import { productJpeg } from '../support/uploads.js';
import { createUser } from '../support/users.js';
import { generateVideo, pollUntilDone } from '../support/video.js';

const twin = inject('twin');
Object.assign(process.env, twin.env);
const { dynamo } = await import('../../lambdas/data/dynamo.js');
const { TABLES, tableName } = await import('../../lambdas/data/tables.js');
const { createJob, getJob } = await import('../../lambdas/data/jobs-repo.js');
const { executionArn } = await import('../../lambdas/core/sfn.js');

/** Every row of every table that mentions the user, as JSON, sorted: what a read must leave as it was. */
async function rowsOf(userId: string): Promise<string[]> {
  const rows: string[] = [];
  for (const table of Object.keys(TABLES) as (keyof typeof TABLES)[]) {
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await dynamo.send(new ScanCommand({ TableName: tableName(table), ExclusiveStartKey }));
      for (const item of page.Items ?? []) {
        const json = JSON.stringify(item, Object.keys(item).sort());
        if (json.includes(userId)) rows.push(`${table} ${json}`);
      }
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
  }
  return rows.sort();
}

describe('reads', () => {
  it('no GET route (nor poll-operation) changes a table, even for a job whose execution was lost', async () => {
    const user = await createUser(twin);
    expect((await api(twin.apiUrl, 'GET', '/profile', { user })).status).toBe(200);
    const photo = await productJpeg();
    const item = await addClothingItem(twin.apiUrl, user, photo);
    const generationId = await onModelPhoto(twin.apiUrl, user, item.id);
    const video = await generateVideo(twin.apiUrl, user, photo, { duration: 5 });
    expect(video.status, JSON.stringify(video.body)).toBe(200);
    expect((await pollUntilDone(twin.apiUrl, user, video.body)).status).toBe('complete');

    // A job generating for half an hour whose execution Step Functions never heard of (lost with a killed host).
    const finished = (await getJob(user.sub, video.body.jobId))!;
    const lostId = randomUUID();
    const lost = {
      ...finished,
      id: lostId,
      status: 'generating' as const,
      operation_name: executionArn('video', lostId),
      created_at: new Date(Date.now() - 30 * 60_000).toISOString(),
      video_key: null,
      thumbnail_key: null,
      outputs: [],
    };
    await createJob(lost);

    const ids: Record<string, string> = { '/clothing-items/{id}': item.id, '/generations/{id}': generationId };
    const before = await rowsOf(user.sub);
    const gets = ROUTES.filter((route) => route.method === 'GET');
    expect(gets.length).toBeGreaterThan(15);
    for (const route of gets) {
      const known = ids[route.path];
      const path = known ? route.path.replace('{id}', known) : route.path.replace(/\{[^}]+\}/g, () => randomUUID());
      // Not followed: Shopify's OAuth callback answers a redirect to the web app (an HTML page), not JSON.
      const answer = await fetch(`${twin.apiUrl}${path}`, { headers: { authorization: `Bearer ${user.idToken}` }, redirect: 'manual' });
      await answer.arrayBuffer();
      expect(answer.status, `GET ${path}`).toBeLessThan(500);
    }
    const polled = await api(twin.apiUrl, 'POST', '/poll-operation', { user, body: { jobId: lostId, operationName: lost.operation_name } });
    expect(polled.body).toMatchObject({ done: false, status: 'generating' });
    expect(await rowsOf(user.sub)).toEqual(before);
  });
});
