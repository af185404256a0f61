// Publishing to Shopify on a stage that has a Shopify app (context shopifyAppSecretName): the app's credentials are
// the Secrets Manager secret the operator created (JSON {"apiKey", "apiSecret"}: the client id and secret of the app's
// Partner Dashboard), the key that seals the shops' offline tokens at rest is a secret generated here. Each function
// reads exactly the secrets its declaration names (lambdas/routes.ts, lambdas/workflows.ts; the function factory
// grants them), and the ones that speak for the app learn the web app's origin: OAuth's redirect URL is on it. The
// stack outputs the two URLs the Partner Dashboard asks for. Without the context key the stage has no Shopify.
import { CfnOutput, Stack, Validations } from 'aws-cdk-lib';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { Secret, type ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { API_PREFIX } from '../../lambdas/contracts/api-keys.js';
import { SHOPIFY_SCOPES, shopifyCallbackRoute, shopifyWebhookRoute } from '../../lambdas/contracts/shopify.js';
import { SECRETS, type SecretName } from '../../lambdas/core/secrets.js';
import { SHOPIFY_APP_URL_ENV } from '../../lambdas/domain/shopify/settings.js';

export interface ShopifyProps {
  /** The Secrets Manager secret holding the app's credentials; undefined: no Shopify on this stage. */
  appSecretName?: string;
}

export class Shopify extends Construct {
  /** The stage's Shopify secrets for the function factory (none without an app). */
  readonly secrets: Partial<Record<SecretName, ISecret>> = {};
  readonly enabled: boolean;

  constructor(scope: Construct, id: string, props: ShopifyProps) {
    super(scope, id);
    this.enabled = Boolean(props.appSecretName);
    if (!props.appSecretName) return;
    this.secrets.shopifyApp = Secret.fromSecretNameV2(this, 'AppCredentials', props.appSecretName);
    const tokenKey = new Secret(this, 'TokenKey', {
      description: SECRETS.shopTokenKey.description,
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    Validations.of(tokenKey).acknowledge({
      id: 'AwsSolutions-SMG4',
      reason: 'The key sealing the stored Shopify tokens: rotating it would make every stored token unreadable (every shop disconnected); the tokens themselves expire within the hour and rotate.',
    });
    this.secrets.shopTokenKey = tokenKey;
  }

  /** The web app's origin for the functions that speak for the app; the URLs to enter in the Partner Dashboard. */
  wire(functions: readonly { fn: NodejsFunction; secrets: readonly SecretName[] }[], { webUrl }: { webUrl: string }): void {
    if (!this.enabled) return;
    for (const { fn, secrets } of functions) if (secrets.includes('shopifyApp')) fn.addEnvironment(SHOPIFY_APP_URL_ENV, webUrl);
    const stack = Stack.of(this);
    new CfnOutput(stack, 'ShopifyAppUrl', { value: webUrl, description: 'The Shopify app’s App URL (Partner Dashboard → the app → Configuration).' });
    new CfnOutput(stack, 'ShopifyRedirectUrl', {
      value: `${webUrl}${API_PREFIX}${shopifyCallbackRoute.path}`,
      description: `The Shopify app’s Allowed redirection URL; its scopes: ${SHOPIFY_SCOPES.join(', ')}.`,
    });
    new CfnOutput(stack, 'ShopifyWebhookUrl', {
      value: `${webUrl}${API_PREFIX}${shopifyWebhookRoute.path}`,
      description: 'Where the Shopify app’s app/uninstalled and compliance webhooks (customers/data_request, customers/redact, shop/redact) go.',
    });
  }
}
