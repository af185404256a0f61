// How large a Lambda bundle (the minified index.mjs synth writes) may be, checked by test/infra/lean-functions.test.ts
// and printed by bench/bundle-size.ts. Functions without native modules stay within 400 KB; the three payment
// functions are the named exceptions, because they carry Stripe's official library (about 300 KB minified), which
// follows Stripe's API versions and verifies webhook signatures as Stripe ships it.

export const MAX_LEAN_BUNDLE_BYTES = 400 * 1024;

/** The handlers that talk to Stripe through the `stripe` package: checkout, refund and Stripe's webhook. */
export const STRIPE_LIBRARY_HANDLERS = ['create-checkout-session', 'request-refund', 'stripe-webhook'] as const;
export const MAX_STRIPE_LIBRARY_BUNDLE_BYTES = 1024 * 1024;

/** The most bytes a handler's bundle without native modules may have. */
export const bundleBudgetOf = (handler: string): number =>
  (STRIPE_LIBRARY_HANDLERS as readonly string[]).includes(handler) ? MAX_STRIPE_LIBRARY_BUNDLE_BYTES : MAX_LEAN_BUNDLE_BYTES;
