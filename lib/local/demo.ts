// The demo studio (`npm start -- --demo`, `npm run demo`): one account with a library of clothing items drawn locally,
// finished on-model images, edits, upscales and a video — all made through the HTTP API, as the web app makes them,
// so every credit spent is in the ledger. Spending requests carry fixed Idempotency-Keys and items are found by
// name, so running it again replays instead of charging or creating anything twice.
//
// On a twin that has just started, the first call of each function loads it (and, on a busy machine, that can take
// long enough for a connection to drop): the seed first waits until the twin's routes answer, then sends again every
// request that got no answer, a 429 or a 5xx, backing off. A retry is safe: spending requests replay by their key,
// reads only read, and a library item is looked up by name before it is registered again.
import { getProfileRoute, type ClothingItem } from '../../lambdas/contracts/api.js';
import { createClothingUploadUrlRoute, listClothingItemsRoute, registerClothingItemRoute } from '../../lambdas/contracts/clothing.js';
import { editAiImageRoute, generateAiImageRoute, getGenerationRoute, listGenerationsRoute, upscaleAiImageRoute, type Generation, type GenerationStarted } from '../../lambdas/contracts/generations.js';
import { purchaseCreditsRoute } from '../../lambdas/contracts/payments.js';
import { fillPath, type ResponseOf, type RouteContract } from '../../lambdas/contracts/route.js';
import { generateVideoRoute, listJobsRoute, pollOperationRoute } from '../../lambdas/contracts/video.js';
import { DEMO_PRODUCTS, productPhoto } from './products.js';
import type { TwinInfo } from './twin.js';
import { signInOrCreate } from './users.js';
import { connectDemoShop } from './demo-shop.js';

export const DEMO_ACCOUNT = { email: 'demo@modelloop.local', password: 'Demo-studio-2026' } as const;

/** Credits bought with the local test payment, so that the demo's work never runs short of the 5 free ones. */
const DEMO_PURCHASE_CREDITS = 50;
const WAIT_MS = 180_000;
/** How long the seed waits for the twin's routes to answer at all after a start. */
const READY_MS = 120_000;
/** Sends of one request that got no answer, a 429 or a 5xx, the waits between them doubling from RETRY_FIRST_MS. */
const ATTEMPTS = 6;
const RETRY_FIRST_MS = 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A failure a retry can cure: no answer at all (the connection refused or dropped), a throttle or a server error. */
class TransientFailure extends Error {}

/** The request never got an answer: fetch's "fetch failed", or a refused, reset or timed-out connection (the AWS SDK's). */
function noAnswer(error: unknown): boolean {
  if (error instanceof TypeError && /fetch failed/i.test(error.message)) return true;
  const code = (error as { code?: unknown; cause?: { code?: unknown } } | undefined)?.code ?? (error as { cause?: { code?: unknown } } | undefined)?.cause?.code;
  return typeof code === 'string' && ['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET'].includes(code);
}

/** `send` again while it fails transiently, up to ATTEMPTS times; any other failure is thrown at once. */
export async function withRetries<T>(send: () => Promise<T>, attempts = ATTEMPTS, firstWaitMs = RETRY_FIRST_MS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      const transient = error instanceof TransientFailure || noAnswer(error);
      if (!transient || attempt >= attempts) throw error;
      await sleep(firstWaitMs * 2 ** (attempt - 1));
    }
  }
}

/** Until the twin's gateway answers its routes (any HTTP answer of the API: a start has loaded them). */
export async function untilRoutesAnswer(apiUrl: string, timeoutMs = READY_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // Unauthenticated, so an answering gateway says 401: the route table is up and dispatching.
    const answered = await fetch(`${apiUrl}${getProfileRoute.path}`).then((response) => response.status < 500, () => false);
    if (answered) return;
    if (Date.now() > deadline) throw new Error(`the twin's routes did not answer within ${timeoutMs / 1000} s`);
    await sleep(500);
  }
}

export interface DemoSummary {
  email: string;
  password: string;
  clothingItems: number;
  generations: number;
  videos: number;
  credits: number;
  /** The Shopify shop the demo studio is connected to (the stand-in's demo shop). */
  shop?: string;
}

type Twin = Pick<TwinInfo, 'apiUrl' | 'cognitoEndpoint' | 'region' | 'userPoolId' | 'userPoolClientId' | 'mailboxFile' | 'shopify'>;

export async function seedDemo(twin: Twin, account: { email: string; password: string } = DEMO_ACCOUNT, log: (line: string) => void = () => undefined): Promise<DemoSummary> {
  await untilRoutesAnswer(twin.apiUrl);
  const user = await withRetries(() => signInOrCreate(twin, account.email, account.password));
  log(user.created ? `created ${account.email}` : `${account.email} exists: replaying`);
  // A route called as its contract declares it (method, path), answering the contract's response type.
  // A request that got no answer, a 429 or a 5xx is sent again (withRetries).
  const call = <R extends RouteContract>(route: R, request: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown; key?: string } = {}): Promise<ResponseOf<R>> =>
    withRetries(() => callOnce(route, request));
  const callOnce = async <R extends RouteContract>(route: R, request: { params?: Record<string, string>; query?: Record<string, string>; body?: unknown; key?: string }): Promise<ResponseOf<R>> => {
    const { body, key } = request;
    const search = new URLSearchParams(request.query ?? {}).toString();
    const path = `${fillPath(route.path, request.params ?? {})}${search ? `?${search}` : ''}`;
    const method = route.method;
    const response = await fetch(`${twin.apiUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${user.idToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(key ? { 'idempotency-key': key } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status === 429 || response.status >= 500) throw new TransientFailure(`${method} ${path} answered ${response.status}: ${text}`);
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return (text ? JSON.parse(text) : undefined) as ResponseOf<R>;
  };

  await call(getProfileRoute);
  await call(purchaseCreditsRoute, { body: { credits: DEMO_PURCHASE_CREDITS }, key: 'demo-purchase-1' });

  // The library: the six drawn products, each uploaded and registered once (found again by name).
  const library = async () => (await call(listClothingItemsRoute, { query: { active: 'true' } })).items;
  const existing = await library();
  const items: ClothingItem[] = [];
  for (const product of DEMO_PRODUCTS) {
    const found = existing.find((item) => item.name === product.name);
    if (found) {
      items.push(found);
      continue;
    }
    const photo = await productPhoto(product);
    const fileName = `${product.name.toLowerCase().replace(/\W+/g, '-')}.jpg`;
    // Registering has no Idempotency-Key: a retry first looks for the item a lost answer may have registered.
    const added = await withRetries(async () => {
      const registered = (await library()).find((item) => item.name === product.name);
      if (registered) return registered;
      const upload = await callOnce(createClothingUploadUrlRoute, { body: { fileName, contentType: 'image/jpeg', sizeBytes: photo.length } });
      const put = await fetch(upload.uploadUrl, { method: 'PUT', headers: upload.headers, body: photo });
      if (!put.ok) throw new TransientFailure(`upload of ${fileName} answered ${put.status}`);
      return callOnce(registerClothingItemRoute, { body: { imageKey: upload.imageKey, name: product.name, description: product.description } });
    });
    items.push(added);
    log(`added ${product.name}`);
  }

  const finished = async (started: GenerationStarted): Promise<Generation> => {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const generation = await call(getGenerationRoute, { params: { id: started.generationId } });
      if (generation.status !== 'processing') return generation;
      if (Date.now() > deadline) throw new Error(`generation ${started.generationId} still processing after ${WAIT_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
  };

  // On-model photos of three items, then edits and upscales of the results.
  const prompts = ['young female model, natural smile, standing relaxed', 'male model, arms crossed, urban look', 'female model, walking, summer light'];
  const images: Generation[] = [];
  for (const [index, prompt] of prompts.entries()) {
    const body = { clothingItemId: items[index]!.id, prompt, cameraZoom: 'auto', imageSize: '1k' };
    images.push(await finished(await call(generateAiImageRoute, { body, key: `demo-image-${index + 1}` })));
  }
  log(`${images.length} on-model images`);
  const edits = [
    { imageUrl: images[0]!.id, editPrompt: 'background #f3e9dc and brighten by 10%' },
    { imageUrl: images[2]!.id, editPrompt: 'grayscale' },
  ];
  const edited: Generation[] = [];
  for (const [index, body] of edits.entries()) edited.push(await finished(await call(editAiImageRoute, { body, key: `demo-edit-${index + 1}` })));
  const upscales = [
    { imageUrl: images[1]!.id, targetResolution: '2k' },
    { imageUrl: edited[0]!.id, targetResolution: '2k' },
  ];
  for (const [index, body] of upscales.entries()) await finished(await call(upscaleAiImageRoute, { body, key: `demo-upscale-${index + 1}` }));
  log(`${edits.length} edits, ${upscales.length} upscales`);

  // One looping video of the T-shirt (the same bytes every run, so the replay matches the first request).
  const source = (await productPhoto(DEMO_PRODUCTS[0]!)).toString('base64');
  const video = await call(generateVideoRoute, { body: { imageBase64: source, prompt: 'Pivot', duration: 5, aspect_ratio: '9:16', output_count: 1 }, key: 'demo-video-1' });
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const poll = await call(pollOperationRoute, { body: { jobId: video.jobId, operationName: video.operationName } });
    if (poll.done) break;
    if (Date.now() > deadline) throw new Error(`video ${video.jobId} not done after ${WAIT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  log('1 video');
  // The install is several requests: on a cold twin any of them may get no answer or a 429/5xx; it starts again.
  const shop = await withRetries(() =>
    connectDemoShop(twin, user.idToken).catch((error: unknown) => {
      throw error instanceof Error && /answered (429|5\d\d)/.test(error.message) ? new TransientFailure(error.message) : error;
    }),
  );
  if (shop) log(`connected the demo shop ${shop}`);

  const [profile, generations, jobs, finalLibrary] = await Promise.all([
    call(getProfileRoute),
    call(listGenerationsRoute),
    call(listJobsRoute),
    call(listClothingItemsRoute, { query: { active: 'true' } }),
  ]);
  return {
    email: account.email,
    password: account.password,
    clothingItems: finalLibrary.items.length,
    generations: generations.items.length,
    videos: jobs.items.length,
    credits: profile.current_credits,
    ...(shop ? { shop } : {}),
  };
}

/** How to sign in to the demo studio, whether or not its seeding finished: the account exists once seeding has begun. */
export function printDemoSignIn(account: { email: string; password: string; shop?: string }, webUrl: string): void {
  console.log(`
    Sign in at ${webUrl}/auth
    E-mail    ${account.email}
    Password  ${account.password}${account.shop ? `\n    Shopify   ${account.shop} (a stand-in shop: publish any result to it)` : ''}
`);
}

export function printDemoSummary(summary: DemoSummary, webUrl: string): void {
  console.log(`
  Demo studio ready: ${summary.clothingItems} clothing items, ${summary.generations} history entries, ${summary.videos} video, ${summary.credits} credits.`);
  printDemoSignIn(summary, webUrl);
}
