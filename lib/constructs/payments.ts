// How the stage takes payments (lib/config.ts `payments`): the payment functions learn the mode and the stage
// (PAYMENTS, STAGE); with Stripe, the functions that call Stripe may read exactly the secrets they use (the API key;
// the webhook's signing secret only for the webhook), and the checkout learns where the web app is (WEB_URL).
import { CfnOutput, Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Secret, type ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { PaymentsSettings } from '../config.js';
import type { RouteHandler } from './http-api.js';

/** The route functions that take part in payments, and which Stripe secrets each reads. */
export const PAYMENT_FUNCTIONS = {
  'purchase-credits': [],
  'create-checkout-session': ['apiKey'],
  'stripe-webhook': ['apiKey', 'webhook'],
  'request-refund': ['apiKey'],
} as const satisfies Partial<Record<RouteHandler, readonly ('apiKey' | 'webhook')[]>>;
type PaymentFunction = keyof typeof PAYMENT_FUNCTIONS;

export interface PaymentsProps {
  settings: PaymentsSettings;
  stage: string;
}

export class Payments extends Construct {
  private readonly secrets?: { apiKey: ISecret; webhook: ISecret };

  constructor(scope: Construct, id: string, private readonly props: PaymentsProps) {
    super(scope, id);
    const { settings } = props;
    if (settings.mode === 'stripe') {
      this.secrets = {
        apiKey: Secret.fromSecretNameV2(this, 'StripeApiKey', settings.apiKeySecretName),
        webhook: Secret.fromSecretNameV2(this, 'StripeWebhookSecret', settings.webhookSecretName),
      };
    }
  }

  /** The environment of every payment function (route table builds them; CDK passes this per handler). */
  routeEnvironment(): Record<PaymentFunction, Record<string, string>> {
    const common: Record<string, string> = { PAYMENTS: this.props.settings.mode, STAGE: this.props.stage };
    const settings = this.props.settings;
    const names = settings.mode === 'stripe' ? { apiKey: settings.apiKeySecretName, webhook: settings.webhookSecretName } : undefined;
    return Object.fromEntries(
      (Object.entries(PAYMENT_FUNCTIONS) as [PaymentFunction, readonly ('apiKey' | 'webhook')[]][]).map(([handler, secrets]) => [
        handler,
        {
          ...common,
          ...(names && secrets.includes('apiKey') ? { STRIPE_API_KEY_SECRET_NAME: names.apiKey } : {}),
          ...(names && secrets.includes('webhook') ? { STRIPE_WEBHOOK_SECRET_NAME: names.webhook } : {}),
        },
      ]),
    ) as Record<PaymentFunction, Record<string, string>>;
  }

  /** Grants the Stripe secrets, tells the checkout where the web app is, and outputs the webhook endpoint's URL. */
  wire(functions: Record<PaymentFunction, NodejsFunction>, { apiUrl, webUrl }: { apiUrl: string; webUrl: string }): void {
    functions['create-checkout-session'].addEnvironment('WEB_URL', webUrl);
    if (!this.secrets) return;
    for (const [handler, secrets] of Object.entries(PAYMENT_FUNCTIONS) as [PaymentFunction, readonly ('apiKey' | 'webhook')[]][]) {
      const role = functions[handler].role;
      if (!role || secrets.length === 0) continue;
      // A secret's ARN ends in '-' and six random characters that a secret known by name does not tell.
      const resources = secrets.map((secret) => `${this.secrets![secret].secretArn}-??????`);
      role.addToPrincipalPolicy(new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources }));
    }
    new CfnOutput(Stack.of(this), 'StripeWebhookUrl', {
      value: `${apiUrl.replace(/\/?$/, '/')}webhooks/stripe`,
      description: 'Create the Stripe webhook endpoint for this URL (events: checkout.session.completed, checkout.session.async_payment_succeeded, checkout.session.async_payment_failed, charge.refunded).',
    });
  }
}
