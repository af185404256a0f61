// Request and response shapes of the HTTP API, shared by the Lambda handlers and the web app.
import * as z from 'zod';
import { MAX_PURCHASE_CREDITS, MIN_CUSTOM_CREDITS } from './catalog.js';

/** Every error answer of the API: a message a person can read and a stable code a program can test. */
export const ApiErrorBody = z.object({ error: z.string(), code: z.string() });
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;

export const Profile = z.object({
  id: z.string(),
  email: z.string(),
  created_at: z.string(),
  last_login: z.string(),
  current_credits: z.number().int(),
  plan_id: z.string(),
  total_credits_spent: z.number().int(),
});
export type Profile = z.infer<typeof Profile>;

export const TRANSACTION_TYPES = ['signup_bonus', 'purchase', 'debit', 'refund'] as const;
export const CreditTransaction = z.object({
  id: z.string(),
  user_id: z.string(),
  description: z.string(),
  transaction_type: z.enum(TRANSACTION_TYPES),
  amount: z.number().int(),
  balance_after: z.number().int(),
  created_at: z.string(),
});
export type CreditTransaction = z.infer<typeof CreditTransaction>;

export const PricingTier = z.object({
  id: z.string(),
  feature_type: z.string(),
  display_name: z.string(),
  description: z.string(),
  credits_cost: z.number().int(),
  is_active: z.boolean(),
  sort_order: z.number().int(),
});
export type PricingTier = z.infer<typeof PricingTier>;

export const PurchaseCreditsRequest = z.object({
  credits: z
    .number({ error: 'Enter the number of credits to buy' })
    .int('Credits must be a whole number')
    .min(MIN_CUSTOM_CREDITS, `The minimum is ${MIN_CUSTOM_CREDITS} credit`)
    .max(MAX_PURCHASE_CREDITS, `At most ${MAX_PURCHASE_CREDITS} credits can be bought at once`),
});
export type PurchaseCreditsRequest = z.infer<typeof PurchaseCreditsRequest>;

export const PurchaseCreditsResponse = z.object({
  credits: z.number().int(),
  amountUsd: z.number(),
  newCredits: z.number().int(),
  transaction: CreditTransaction,
  payment: z.object({ method: z.literal('local-test-payment'), id: z.string() }),
});
export type PurchaseCreditsResponse = z.infer<typeof PurchaseCreditsResponse>;

export const ListResponse = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item) });

/** The header every spending request carries; a retry with the same key never charges twice. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IdempotencyKey = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,128}$/, 'The Idempotency-Key header must be 8 to 128 letters, digits, - or _');

/** Runtime configuration of the web app, served as /config.json by both hosts. */
export const RuntimeConfig = z.object({
  apiUrl: z.string().url(),
  websocketUrl: z.string().optional(),
  region: z.string(),
  userPoolId: z.string(),
  userPoolClientId: z.string(),
  /** Where the web app talks to Cognito; set only on the local twin (cognito-local). */
  cognitoEndpoint: z.string().url().optional(),
  /** Hosted UI domain and social providers for OAuth sign-in; absent when none is configured. */
  oauth: z
    .object({ domain: z.string(), providers: z.array(z.string()), redirectUrl: z.string().url() })
    .optional(),
  host: z.enum(['local', 'cloud']),
  testPayments: z.boolean(),
});
export type RuntimeConfig = z.infer<typeof RuntimeConfig>;
