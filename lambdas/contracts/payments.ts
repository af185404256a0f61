// The routes of buying credits: the labelled test payment, Stripe Checkout and its webhook, refunds of unused credits,
// receipts (lambdas/domain/payments/). Their schemas are in api.ts.
// Each route is built in a `/* @__PURE__ */` call so that a bundle builds only the routes it reads (see route.ts).
import { CheckoutRequest, CheckoutResponse, ListResponse, PurchaseCreditsRequest, PurchaseCreditsResponse, PurchaseReceipt, RefundRequest, RefundResponse } from './api.js';
import { defineRoute } from './route.js';

export const purchaseCreditsRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/credits/purchase',
  auth: 'user',
  summary: 'Buy credits with the labelled test payment (test stages only)',
  body: PurchaseCreditsRequest,
  idempotent: true,
  response: PurchaseCreditsResponse,
  sample: { body: { credits: 170 } },
}))();

export const createCheckoutSessionRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/credits/checkout',
  auth: 'user',
  summary: 'Start a card purchase: the Stripe Checkout page to send the buyer to',
  body: CheckoutRequest,
  idempotent: true,
  response: CheckoutResponse,
  sample: { body: { credits: 170 } },
}))();

/** Authenticated by the Stripe-Signature over the raw body (Stripe's signed event, not a contract of ours). */
export const stripeWebhookRoute = /* @__PURE__ */ (() => defineRoute({ method: 'POST', path: '/webhooks/stripe', auth: 'public', summary: "Stripe's signed payment events" }))();

export const requestRefundRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'POST',
  path: '/credits/refund-requests',
  auth: 'user',
  summary: 'Refund the unused credits of a card purchase',
  body: RefundRequest,
  response: RefundResponse,
  sample: { body: { transactionId: 'purchase#cs_test_sample' } },
}))();

export const listPurchasesRoute = /* @__PURE__ */ (() => defineRoute({
  method: 'GET',
  path: '/credits/purchases',
  auth: 'user',
  summary: 'Your purchases and their receipts',
  response: ListResponse(PurchaseReceipt),
}))();
