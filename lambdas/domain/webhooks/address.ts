// The address rules of an endpoint, checked at registration with the fetch guard's own check (and again by the guard
// at every delivery).
import { AppError } from '../../core/errors.js';
import { checkTarget, defaultResolver, SafeFetchError, type Resolver } from '../../net/address-guard.js';
import { localTargetsAllowed } from './rules.js';

/**
 * The address rules of an endpoint, checked at registration (and again at every delivery by the fetch guard): https
 * only, no credentials, port 443, and a host whose every address is global unicast outside every special-purpose block. On the twin, http and loopback too.
 */
export async function checkWebhookUrl(
  raw: string,
  options: { local?: boolean; resolve?: Resolver } = {},
): Promise<URL> {
  const local = options.local ?? localTargetsAllowed();
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AppError(400, 'WEBHOOK_URL_INVALID', 'Enter a full address, like https://example.com/webhooks.');
  }
  if (url.protocol !== 'https:' && !(local && url.protocol === 'http:')) {
    throw new AppError(400, 'WEBHOOK_URL_NOT_HTTPS', 'The address must start with https://.');
  }
  if (url.username || url.password) {
    throw new AppError(400, 'WEBHOOK_URL_INVALID', 'The address must not contain a user name or password.');
  }
  try {
    await checkTarget(url, options.resolve ?? defaultResolver, new Set(), local);
  } catch (error) {
    if (error instanceof SafeFetchError && error.reason === 'UNREACHABLE') {
      throw new AppError(400, 'WEBHOOK_URL_UNRESOLVABLE', 'That address could not be found.');
    }
    throw new AppError(400, 'WEBHOOK_URL_NOT_ALLOWED', 'That address is not allowed: it must be a public https address (port 443).');
  }
  return url;
}
