// How a deployment configures its Shopify app, besides the two secrets (lambdas/core/secrets.ts): read by the app
// (app.ts), set by CDK (lib/constructs/shopify.ts) and the twin (lib/local/twin.ts). No library here.

/** The web app's origin (e.g. https://d123.cloudfront.net): where Shopify sends the merchant back. */
export const SHOPIFY_APP_URL_ENV = 'SHOPIFY_APP_URL';
/**
 * Tests and the twin only: the origin of a stand-in for Shopify (lib/local/fake-shopify.ts) that every request of the
 * integration goes to instead (app.ts). The cloud never sets it.
 */
export const SHOPIFY_STAND_IN_ENV = 'SHOPIFY_STAND_IN_ORIGIN';
