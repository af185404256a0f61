// The Shopify app through its official library, `@shopify/shopify-api` 15 (github.com/Shopify/shopify-app-js,
// packages/apps/shopify-api, read 2026-11-27): OAuth (auth.begin / auth.callback / auth.refreshToken), webhook HMAC
// (webhooks.validate), the GraphQL Admin client (clients.Graphql). One instance per container, made once the app's
// credentials are read from its secret.
//
// Adapter: the library's web-api adapter (`@shopify/shopify-api/adapters/web-api`), which takes a WHATWG Request and
// answers a Response: an API Gateway event maps onto those one-to-one, and Node 22 (the Lambda runtime) has fetch,
// Request, Response and Web Crypto globally, which is all that adapter asks of its platform.
//
// Host: OAuth's redirect URL is `<hostScheme>://<hostName><callbackPath>`, the web app's origin (SHOPIFY_APP_URL) and
// the callback route under /api, where the web app reaches the API on both hosts (CloudFront's /api behaviour, the
// twin's gateway): so the state cookie auth.begin sets on the web app's origin comes back with Shopify's redirect.
//
// Transport: the library addresses `https://<shop>/…` for OAuth and the Admin API (its source: auth/oauth/oauth.mjs,
// clients/admin/graphql/client.mjs), and has no setting for another host. Where SHOPIFY_STAND_IN_ORIGIN is set (the
// twin and tests: a loopback stand-in for Shopify, lib/local/fake-shopify.ts), every URL the integration sends or
// hands a browser (OAuth, the Admin API, the staged-upload targets, the admin links) goes to that origin instead,
// `https://<host>/<path>` → `<origin>/<host>/<path>`, through the runtime's one fetch function
// (`setAbstractFetchFunc`, the hook the adapters themselves set). The cloud never sets it.
import '@shopify/shopify-api/adapters/web-api';
import { ApiVersion, LogSeverity, shopifyApi, type Shopify } from '@shopify/shopify-api';
import { setAbstractFetchFunc } from '@shopify/shopify-api/runtime';
import { API_PREFIX } from '../../contracts/api-keys.js';
import { SHOPIFY_CODES, SHOPIFY_MESSAGES, SHOPIFY_SCOPES, shopifyCallbackRoute } from '../../contracts/shopify.js';
import { requireEnv } from '../../core/config.js';
import { AppError } from '../../core/errors.js';
import { log } from '../../core/log.js';
import { hasSecret, readSecret } from '../../core/secrets.js';
import { SHOPIFY_APP_URL_ENV, shopifyUrl } from './settings.js';

export { productAdminUrl, shopAdminUrl, shopifyUrl } from './settings.js';

/**
 * The pinned Admin API version: the newest stable quarterly version the library's ApiVersion enum knows on
 * 2026-11-27 (2026-10; 2027-01 is the release candidate). Every query and mutation of admin.ts is written against its
 * reference, shopify.dev/docs/api/admin-graphql/2026-10.
 */
export const SHOPIFY_API_VERSION = ApiVersion.October26;

/** The redirect URL's path on the web app's origin (the Partner Dashboard lists `<web app>/api/shops/callback`). */
export const CALLBACK_PATH = `${API_PREFIX}${shopifyCallbackRoute.path}`;

/** The fetch of every request to Shopify: the library's (OAuth, GraphQL) and ours (staged uploads). */
export const shopifyFetch: typeof fetch = (input, init) => fetch(shopifyUrl(input instanceof Request ? input.url : String(input)), init);
setAbstractFetchFunc(shopifyFetch);

/** Whether this deployment has a Shopify app (its credentials secret). */
export const shopifyConfigured = (): boolean => hasSecret('shopifyApp');

let app: Promise<Shopify> | undefined;

/** The library, configured with the app's credentials; 503 SHOPIFY_NOT_SET_UP on a deployment without a Shopify app. */
export function shopifyApp(): Promise<Shopify> {
  if (!shopifyConfigured()) throw new AppError(503, SHOPIFY_CODES.notSetUp, SHOPIFY_MESSAGES.notSetUp);
  app ??= readSecret('shopifyApp').then(
    (text) => {
      const { apiKey, apiSecret } = JSON.parse(text) as { apiKey?: string; apiSecret?: string };
      if (!apiKey || !apiSecret) throw new Error('The shopifyApp secret must be JSON with apiKey and apiSecret');
      const appUrl = new URL(requireEnv(SHOPIFY_APP_URL_ENV));
      return shopifyApi({
        apiKey,
        apiSecretKey: apiSecret,
        scopes: [...SHOPIFY_SCOPES],
        hostName: appUrl.host,
        hostScheme: appUrl.protocol === 'http:' ? 'http' : 'https',
        apiVersion: SHOPIFY_API_VERSION,
        isEmbeddedApp: false,
        // The library's own lines, warnings and errors only, through our logger; its HTTP logging (which would print
        // requests) stays off. Tokens never reach either.
        logger: {
          level: LogSeverity.Warning,
          httpRequests: false,
          log: (severity, text) => (severity === LogSeverity.Error ? log.error : log.warn)('shopify library', { detail: text }),
        },
        _logDisabledFutureFlags: false,
      });
    },
    (error: unknown) => {
      app = undefined;
      throw error;
    },
  );
  return app;
}
