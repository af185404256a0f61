// How large a Lambda bundle (the minified index.mjs synth writes) may be, checked by test/infra/lean-functions.test.ts
// and printed by bench/bundle-size.ts. Functions without native modules stay within 500 KB; the three payment
// functions are the named exceptions, because they carry Stripe's official library (about 300 KB minified), which
// follows Stripe's API versions and verifies webhook signatures as Stripe ships it; so are the functions that carry
// Shopify's official library (SHOPIFY_LIBRARY_HANDLERS).
//
// The limit was 400 KB until the third round. Then every user route began to carry the caller gate (one consistent
// read of the account's and the key's standing, and the key's rate: 5–60 KB, mostly zod through the limits config),
// and CheckClip the status checks of Veo and FASHN beside Luma's; nine functions came to 403–468 KB (the largest,
// create-support-ticket, with the SES client). bench/bundle-size.ts measures what that costs at load.
// The fourth round took it to 500 KB: generate-batch (489 KB) now resolves each entry's own saved model and checks
// every source's size before the charge, and create-support-ticket (482 KB) reserves its rate and checks the mail
// headers. Both were measured from the synthesized assets (test/infra/lean-functions.test.ts).
export const MAX_LEAN_BUNDLE_BYTES = 500 * 1024;

/** The handlers that talk to Stripe through the `stripe` package: checkout, refund and Stripe's webhook. */
export const STRIPE_LIBRARY_HANDLERS = ['create-checkout-session', 'request-refund', 'stripe-webhook'] as const;
export const MAX_STRIPE_LIBRARY_BUNDLE_BYTES = 1024 * 1024;

/**
 * The handlers that talk to Shopify through `@shopify/shopify-api` (OAuth, webhook HMAC, the GraphQL Admin client):
 * the same kind of exception, for the same reason. Measured from the synthesized assets (November 2026): the library
 * adds about 150 KB; publish-to-shop (765 KB) also reads the results bucket and the products, publish-file (673 KB)
 * uploads a result; the others are 380–540 KB.
 */
export const SHOPIFY_LIBRARY_HANDLERS = [
  'connect-shop',
  'shopify-callback',
  'disconnect-shop',
  'search-shop-products',
  'publish-to-shop',
  'shopify-webhook',
  'publish-file',
  'account-disconnect-shops',
] as const;
export const MAX_SHOPIFY_LIBRARY_BUNDLE_BYTES = 1024 * 1024;

/** The most bytes a handler's bundle without native modules may have. */
export const bundleBudgetOf = (handler: string): number =>
  (STRIPE_LIBRARY_HANDLERS as readonly string[]).includes(handler)
    ? MAX_STRIPE_LIBRARY_BUNDLE_BYTES
    : (SHOPIFY_LIBRARY_HANDLERS as readonly string[]).includes(handler)
      ? MAX_SHOPIFY_LIBRARY_BUNDLE_BYTES
      : MAX_LEAN_BUNDLE_BYTES;

/**
 * The one function that carries the preview engine's ESRGAN upscaler: the generation workflow's Upscale task. Beside
 * its index.mjs (which carries sharp, like every picture-making function) it ships the folder esrgan/: esrgan-slim's
 * ×2 weights (0.9 MB) and onnxruntime-node with its linux-x64 binding (16.3 MB), about 17.2 MB in all, so that the
 * one real model the preview engine runs offline runs in the cloud too, natively (TensorFlow.js's WASM backend, which
 * shipped in 3.4 MB, took about 8 times the CPU: lambdas/providers/local-engine/esrgan-model.ts).
 */
export const ESRGAN_HANDLERS = ['generation-upscale'] as const;
export const MAX_ESRGAN_FOLDER_BYTES = 18 * 1024 * 1024;
