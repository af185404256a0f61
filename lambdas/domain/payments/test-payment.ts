// The labelled test payment: credits granted without money, for the twin and for stages listed as test stages. It
// never runs where the stage is prod (settings.ts), and grants at most TEST_PAYMENT_DAILY_CREDITS per user per day.
import { TEST_PAYMENT_DAILY_CREDITS, type PurchaseCreditsResponse } from '../../contracts/api.js';
import { priceUsd } from '../../contracts/catalog.js';
import { AppError, forbidden } from '../../core/errors.js';
import { testGrantReservation, testGrantsOf, testGrantsToday } from '../../data/payments-repo.js';
import { purchase } from '../credits.js';
import { paymentMode, testPaymentAllowed } from './settings.js';

export async function buyWithTestPayment(userId: string, credits: number, idempotencyKey: string): Promise<PurchaseCreditsResponse> {
  if (!testPaymentAllowed()) {
    throw forbidden(
      'PAYMENTS_DISABLED',
      paymentMode() === 'stripe' ? 'The test payment is not available here: buy credits by card.' : 'Card payments are not available yet on this deployment.',
    );
  }
  const paymentId = `local-test-${idempotencyKey}`;
  if (credits > TEST_PAYMENT_DAILY_CREDITS) throw allowanceRefusal(await testGrantsToday(userId));
  // The allowance is taken in the grant's own transaction: a retried request is the ledger's replay and takes none.
  const { entry } = await purchase(userId, {
    paymentId,
    credits,
    description: `Purchase of ${credits} credits ($${priceUsd(credits).toFixed(2)}, local test payment)`,
    allowance: { write: testGrantReservation(userId, credits, TEST_PAYMENT_DAILY_CREDITS), refusal: (held) => allowanceRefusal(testGrantsOf(held)) },
  });
  return {
    credits: entry.amount,
    amountUsd: priceUsd(entry.amount),
    newCredits: entry.balance_after,
    transaction: entry,
    payment: { method: 'local-test-payment', id: paymentId },
  };
}

const wholeCredits = (count: number) => count.toLocaleString('en-US');

/** The refusal of a test payment over the day's allowance, naming what is left of it (`granted` today already). */
function allowanceRefusal(granted: number): AppError {
  const left = Math.max(0, TEST_PAYMENT_DAILY_CREDITS - granted);
  const limit = `Test payments grant at most ${wholeCredits(TEST_PAYMENT_DAILY_CREDITS)} credits per account per day`;
  return new AppError(
    429,
    'TEST_PAYMENT_LIMIT',
    left === 0
      ? `${limit}, and none are left today. Try again tomorrow.`
      : `${limit}, and ${wholeCredits(left)} are left today: buy ${wholeCredits(left)} or fewer, or try again tomorrow.`,
  );
}
