// Stripe's webhook: the only way card payments grant credits. The raw body is verified against the Stripe-Signature
// header (five minutes' tolerance) before anything is read from it. Grants are keyed by the Checkout Session, so a
// redelivered, replayed or reordered event never grants twice. An event that can't be honoured (unknown user, metadata
// that doesn't match the session, a refund whose credits are spent) is recorded and acknowledged with 200, because
// Stripe would only send it again; only our own faults answer 5xx, so that Stripe retries.
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { MAX_PURCHASE_CREDITS } from '../../contracts/catalog.js';
import type { PaymentDetails } from '../../contracts/api.js';
import { InsufficientCreditsError } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { getLedgerEntry, getProfile } from '../../data/credits-repo.js';
import { findPaymentIntentOwner, recordIgnoredEvent, recordRefund, rememberPaymentIntent } from '../../data/payments-repo.js';
import { purchaseByCard, purchaseEntryId, refundOfPurchase } from '../credits.js';
import { CURRENCY, priceCents } from './checkout.js';
import { existingRefund } from './refunds.js';
import { paymentMode } from './settings.js';
import { stripeClient, stripeWebhookSecret, verifyStripeEvent, type Stripe } from './stripe-client.js';

/** Stripe's recommended tolerance: a signature older than five minutes is refused (replays). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export type WebhookOutcome =
  | 'granted'
  | 'already_granted'
  | 'awaiting_payment'
  | 'payment_failed'
  | 'refunded'
  | 'already_refunded'
  | 'recorded_not_granted'
  | 'ignored';

export async function handleStripeWebhook(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> {
  try {
    if (paymentMode() !== 'stripe') return answer(404, { error: 'Card payments are not enabled on this deployment.', code: 'PAYMENTS_DISABLED' });
    const signature = headerOf(event, 'stripe-signature');
    if (!signature) return answer(400, { error: 'The Stripe-Signature header is missing.', code: 'INVALID_SIGNATURE' });
    const raw = event.body === undefined ? Buffer.alloc(0) : Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
    const secret = await stripeWebhookSecret();
    let verified: Stripe.Event;
    try {
      verified = verifyStripeEvent(raw, signature, secret, SIGNATURE_TOLERANCE_SECONDS);
    } catch (error) {
      log.warn('stripe webhook refused', { reason: error instanceof Error ? error.message.split('\n')[0] : 'unreadable' });
      return answer(400, { error: 'The webhook signature is not valid or too old.', code: 'INVALID_SIGNATURE' });
    }
    const outcome = await dispatch(verified);
    log.info('stripe webhook', { eventId: verified.id, type: verified.type, outcome });
    return answer(200, { received: true, outcome });
  } catch (error) {
    log.error('stripe webhook failed', { error });
    return answer(500, { error: 'Something went wrong on our side. Please try again.', code: 'INTERNAL_ERROR' });
  }
}

async function dispatch(event: Stripe.Event): Promise<WebhookOutcome> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return fulfil(event, event.data.object);
    case 'checkout.session.async_payment_failed':
      return 'payment_failed';
    case 'charge.refunded':
      return reconcileRefund(event, event.data.object);
    default:
      return 'ignored';
  }
}

async function ignore(event: Stripe.Event, reason: string, detail: Record<string, unknown> = {}): Promise<WebhookOutcome> {
  log.warn('stripe event not granted', { eventId: event.id, type: event.type, reason, ...detail });
  await recordIgnoredEvent({ id: event.id, type: event.type, reason, detail });
  return 'recorded_not_granted';
}

/** Grants a paid Checkout Session's credits to the user its metadata names, once per session. */
async function fulfil(event: Stripe.Event, session: Stripe.Checkout.Session): Promise<WebhookOutcome> {
  if (session?.object !== 'checkout.session' || typeof session.id !== 'string') return ignore(event, 'not_a_checkout_session');
  if (session.mode !== 'payment') return ignore(event, 'not_a_payment', { sessionId: session.id });
  if (session.payment_status !== 'paid') return 'awaiting_payment';

  const userId = session.metadata?.user_id;
  const credits = Number(session.metadata?.credits);
  const matches =
    typeof userId === 'string' &&
    userId.length > 0 &&
    session.client_reference_id === userId &&
    Number.isInteger(credits) &&
    credits >= 1 &&
    credits <= MAX_PURCHASE_CREDITS &&
    session.currency === CURRENCY &&
    session.amount_total === priceCents(credits);
  if (!matches) {
    return ignore(event, 'metadata_mismatch', {
      sessionId: session.id,
      clientReferenceId: session.client_reference_id,
      metadata: session.metadata,
      amountTotal: session.amount_total,
      currency: session.currency,
    });
  }
  if (!(await getProfile(userId))) return ignore(event, 'unknown_user', { sessionId: session.id, userId });
  if (await getLedgerEntry(userId, purchaseEntryId(session.id))) return 'already_granted';

  const paymentIntentId = idOf(session.payment_intent);
  const charge = paymentIntentId ? await latestCharge(paymentIntentId) : undefined;
  const payment: PaymentDetails = {
    provider: 'stripe',
    amount_cents: session.amount_total!,
    currency: session.currency!,
    checkout_session_id: session.id,
    ...(paymentIntentId ? { payment_intent_id: paymentIntentId } : {}),
    ...(charge?.id ? { charge_id: charge.id } : {}),
    ...(charge?.receipt_url ? { receipt_url: charge.receipt_url } : {}),
    livemode: event.livemode,
  };
  const { replayed } = await purchaseByCard(userId, {
    sessionId: session.id,
    credits,
    description: `Purchase of ${credits} credits ($${(payment.amount_cents / 100).toFixed(2)}, card via Stripe)`,
    payment,
  });
  if (paymentIntentId) await rememberPaymentIntent(paymentIntentId, { userId, sessionId: session.id });
  return replayed ? 'already_granted' : 'granted';
}

/** The receipt of a payment; best effort, the grant never waits on it failing. */
async function latestCharge(paymentIntentId: string): Promise<Stripe.Charge | undefined> {
  try {
    const stripe = await stripeClient();
    const intent = await stripe.paymentIntents.retrieve(paymentIntentId, { expand: ['latest_charge'] }, { timeout: 3_000, maxNetworkRetries: 0 });
    return typeof intent.latest_charge === 'object' && intent.latest_charge ? intent.latest_charge : undefined;
  } catch (error) {
    log.warn('stripe receipt not read', { paymentIntentId, reason: error instanceof Error ? error.message : 'unknown' });
    return undefined;
  }
}

/** A refund made in Stripe's dashboard (or one we asked for): the purchase's credits are taken back once. */
async function reconcileRefund(event: Stripe.Event, charge: Stripe.Charge): Promise<WebhookOutcome> {
  const paymentIntentId = idOf(charge?.payment_intent);
  if (!paymentIntentId) return ignore(event, 'no_payment_intent', { chargeId: charge?.id });
  const owner = await findPaymentIntentOwner(paymentIntentId);
  if (!owner) return ignore(event, 'unknown_payment', { paymentIntentId });
  const purchase = await getLedgerEntry(owner.userId, purchaseEntryId(owner.sessionId));
  if (!purchase?.payment) return ignore(event, 'unknown_purchase', { paymentIntentId, sessionId: owner.sessionId });
  if (!charge.refunded || charge.amount_refunded < charge.amount) {
    return ignore(event, 'partial_refund', { paymentIntentId, amountRefunded: charge.amount_refunded, amount: charge.amount });
  }
  // Since API version 2022-11-15 a Charge no longer carries its refunds ("The Charges object no longer auto-expands
  // refunds by default", https://docs.stripe.com/changelog/2022-11-15/deprecates-charges-auto-expand, read 2026-11-27),
  // so the event of the pinned version has none: the refund is looked up through the API.
  const refundId = charge.refunds?.data[0]?.id ?? (await refundOfPayment(paymentIntentId));
  try {
    const { replayed } = await refundOfPurchase(owner.userId, {
      sessionId: owner.sessionId,
      credits: purchase.amount,
      description: `Refund of purchase: ${purchase.amount} credits ($${(purchase.payment.amount_cents / 100).toFixed(2)} returned to the card)`,
      payment: { ...purchase.payment, ...(refundId ? { refund_id: refundId } : {}) },
    });
    await recordRefund(owner.sessionId, { userId: owner.userId, status: 'succeeded', ...(refundId ? { refundId } : {}) });
    return replayed ? 'already_refunded' : 'refunded';
  } catch (error) {
    if (error instanceof InsufficientCreditsError) {
      return ignore(event, 'credits_already_spent', { paymentIntentId, sessionId: owner.sessionId, credits: purchase.amount, available: error.available });
    }
    throw error;
  }
}

/** The payment's refund, asked of Stripe; best effort (the credits are taken back either way, the id added later). */
async function refundOfPayment(paymentIntentId: string): Promise<string | undefined> {
  try {
    return (await existingRefund(await stripeClient(), paymentIntentId))?.id;
  } catch (error) {
    log.warn('stripe refund not read', { paymentIntentId, reason: error instanceof Error ? error.message : 'unknown' });
    return undefined;
  }
}

const idOf = (value: string | { id: string } | null | undefined): string | undefined =>
  typeof value === 'string' ? value : value && typeof value.id === 'string' ? value.id : undefined;

function headerOf(event: APIGatewayProxyEventV2, name: string): string | undefined {
  const headers = event.headers ?? {};
  return headers[name] ?? Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}

function answer(statusCode: number, body: unknown): APIGatewayProxyResultV2 {
  return { statusCode, headers: { 'content-type': 'application/json', 'cache-control': 'no-store' }, body: JSON.stringify(body) };
}
