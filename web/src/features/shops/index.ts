// Publishing to Shopify (lambdas/contracts/shopify.ts): Settings → Shops, "Publish to Shopify" on a finished batch.
// A result's own "Publish to Shopify" reaches its card through the ResultExtras slot (app/providers.tsx).
export { ShopsSection } from './shops-section';
export { PublishBatch } from './batch-publish';
