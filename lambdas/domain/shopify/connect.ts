// Connecting a shop: Shopify's authorization code grant through the library's auth.begin and auth.callback
// ("Implement authorization code grant manually", shopify.dev/docs/apps/build/authentication-authorization/
// access-tokens/authorization-code-grant, read 2026-11-27): the merchant is sent to
// https://<shop>/admin/oauth/authorize?client_id&scope&redirect_uri&state&grant_options[], approves, and comes back to
// the redirect URL with code, hmac, host, shop, state and timestamp; the app checks the HMAC (SHA-256 of the sorted
// query without hmac, keyed with the client secret) and the state, then exchanges the code at
// https://<shop>/admin/oauth/access_token. The library does each of those steps; what is ours is who asked (the
// install under way, by its state) and what is stored (the sealed token pair, the granted scopes).
//
// The library's state lives in a signed cookie (`shopify_app_state`, a minute, path = the callback's) that auth.begin
// sets and auth.callback requires. The connect route answers it with the authorize URL; the browser keeps it for the
// web app's origin, where Shopify's redirect lands.
//
// Bots: the library refuses a User-Agent it takes for a bot (isbot) at begin and callback, so that a link-preview
// crawler can't use up a one-time state. Here begin is an authenticated POST, and the callback needs the signed
// cookie that POST set in the same browser, which no crawler has: the requests handed to the library carry only what
// the flow reads (the URL and the cookie). A headless browser or a script completing the install is no bot here.
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2 } from 'aws-lambda';
import { AuthScopes, type Session } from '@shopify/shopify-api';
import { CONNECT_OUTCOME_PARAM, SHOPIFY_CODES, SHOPIFY_MESSAGES, SHOPIFY_SCOPES, type ConnectOutcome, type ConnectShopResponse } from '../../contracts/shopify.js';
import { requireEnv } from '../../core/config.js';
import { AppError } from '../../core/errors.js';
import { Reply } from '../../core/http.js';
import { log } from '../../core/log.js';
import { endConnection, getShop, listUserShops, putConnection, putOAuthState, takeOAuthState, type ShopRecord } from '../../data/shops-repo.js';
import { APP_UNINSTALL, SHOP_QUERY, adminRequest, ShopifyRefused } from './admin.js';
import { CALLBACK_PATH, shopifyApp, shopifyUrl } from './app.js';
import { SHOPIFY_APP_URL_ENV } from './settings.js';
import { offlineSession, sealSession } from './tokens.js';

/** Settings (the web app's paths.settings), where Shops is (the callback sends the browser back there). */
const SETTINGS_PATH = '/settings';

/**
 * POST /shops/connect: Shopify's install screen for the shop, and the state cookie. The install under way is
 * remembered by its state (ten minutes), so the callback knows whose it is.
 */
export async function beginConnect(userId: string, shop: string): Promise<Reply> {
  const existing = await getShop(shop);
  if (existing && existing.user_id !== userId && existing.status === 'connected') throw new AppError(409, SHOPIFY_CODES.connectedElsewhere, SHOPIFY_MESSAGES.connectedElsewhere);
  const shopify = await shopifyApp();
  const response = (await shopify.auth.begin({ shop, callbackPath: CALLBACK_PATH, isOnline: false, rawRequest: new Request(`${appUrl()}${CALLBACK_PATH}`, { method: 'POST' }) })) as Response;
  const location = response.headers.get('location');
  const state = location && new URL(location).searchParams.get('state');
  if (!location || !state) throw new Error('auth.begin answered no authorize URL');
  await putOAuthState(state, userId, shop);
  const answer: ConnectShopResponse = { authorizeUrl: shopifyUrl(location) };
  return new Reply(200, answer, { cookies: response.headers.getSetCookie() });
}

/**
 * GET /shops/callback: Shopify's redirect. Always answers a redirect to Settings with the outcome; the token pair is
 * stored only when the HMAC, the state cookie, the code exchange, the install's owner and the granted scopes all check.
 */
export async function completeConnect(event: APIGatewayProxyEventV2): Promise<APIGatewayProxyResultV2> {
  const shopify = await shopifyApp();
  const cookie = (event.cookies ?? []).join('; ') || event.headers?.cookie || '';
  const rawRequest = new Request(`${appUrl()}${CALLBACK_PATH}?${event.rawQueryString}`, { headers: cookie ? { cookie } : {} });
  let session: Session;
  let clearCookies: string[];
  try {
    const result = await shopify.auth.callback<Headers>({ rawRequest, expiring: true });
    session = result.session;
    clearCookies = result.headers?.getSetCookie() ?? [];
  } catch (error) {
    log.warn('shopify install refused', { reason: error instanceof Error ? error.name : 'unknown' });
    return backToSettings('failed');
  }
  const install = await takeOAuthState(session.state);
  if (!install || install.shop !== session.shop) {
    log.warn('shopify install without a matching start', { shop: session.shop });
    return backToSettings('failed', clearCookies);
  }
  if (!new AuthScopes(session.scope).has([...SHOPIFY_SCOPES])) {
    log.warn('shopify install with missing scopes', { shop: session.shop, granted: session.scope });
    return backToSettings('scopes-missing', clearCookies);
  }
  const name = await shopName(session);
  const stored = await putConnection({
    id: session.shop,
    user_id: install.user_id,
    status: 'connected',
    name,
    scopes: new AuthScopes(session.scope).toArray(true),
    connected_at: new Date().toISOString(),
    token_version: 1,
    ...(await sealSession(session)),
  });
  if (!stored) return backToSettings('connected-elsewhere', clearCookies);
  log.info('shopify shop connected', { shop: session.shop, userId: install.user_id });
  return backToSettings('connected', clearCookies);
}

async function shopName(session: Session): Promise<string> {
  try {
    return (await adminRequest<{ shop: { name: string } }>(session, SHOP_QUERY)).shop.name;
  } catch (error) {
    log.warn('shopify shop name not read', { shop: session.shop, reason: error instanceof Error ? error.name : 'unknown' });
    return session.shop.replace(/\.myshopify\.com$/, '');
  }
}

/**
 * DELETE /shops/{shop}: the app uninstalls itself from the shop (Shopify then invalidates its tokens) and the sealed
 * tokens are deleted. A shop Shopify already disconnected, or that no longer answers, is disconnected all the same:
 * the seller asked for it to be gone. The item stays, without tokens, until Shopify's shop/redact erases the shop.
 */
export async function disconnect(userId: string, shop: string): Promise<void> {
  const record = await getShop(shop);
  if (!record || record.user_id !== userId || record.status === 'disconnected') throw new AppError(409, SHOPIFY_CODES.notConnected, SHOPIFY_MESSAGES.notConnected);
  await uninstallApp(record);
  await endConnection(shop, 'disconnected', new Date().toISOString(), userId);
  log.info('shopify shop disconnected', { shop, userId });
}

/** Account deletion: the app is uninstalled from every shop the user connected; the records go with the account's. */
export async function disconnectAllShops(userId: string): Promise<number> {
  const connected = (await listUserShops(userId)).filter((record) => record.status === 'connected');
  for (const record of connected) {
    await uninstallApp(record);
    await endConnection(record.id, 'disconnected', new Date().toISOString(), userId);
  }
  return connected.length;
}

/** Uninstalls the app from a connected shop (best effort: a shop that refuses or doesn't answer is logged). */
export async function uninstallApp(record: ShopRecord): Promise<void> {
  if (record.status !== 'connected' || !record.access_token) return;
  try {
    const { appUninstall } = await adminRequest<{ appUninstall: { userErrors: { message: string }[] } }>(await offlineSession(record), APP_UNINSTALL);
    if (appUninstall.userErrors.length) log.warn('shopify app uninstall refused', { shop: record.id, message: appUninstall.userErrors[0]!.message });
  } catch (error) {
    log.warn('shopify app uninstall failed', { shop: record.id, reason: error instanceof ShopifyRefused ? error.userMessage : error instanceof Error ? error.name : 'unknown' });
  }
}

const appUrl = () => requireEnv(SHOPIFY_APP_URL_ENV).replace(/\/$/, '');

function backToSettings(outcome: ConnectOutcome, cookies: string[] = []): APIGatewayProxyResultV2 {
  return {
    statusCode: 302,
    headers: { location: `${appUrl()}${SETTINGS_PATH}?${CONNECT_OUTCOME_PARAM}=${outcome}#shops`, 'cache-control': 'no-store' },
    ...(cookies.length ? { cookies } : {}),
  };
}
