// Session tokens in the form of an STS session token (base64 behind STS's `IQoJb3JpZ2luX2Vj` prefix), deterministic:
// the twin's own credentials (LOCAL_CREDENTIALS) and each function's (grants.ts functionCredentials) carry one.
import { createHash } from 'node:crypto';

/** A Lambda role session's token (AWS_SESSION_TOKEN) is about 1,000–1,200 characters; the twin's are this long. */
export const ROLE_SESSION_TOKEN_LENGTH = 1_148;

/** A token of `length` characters; `seed` tells tokens apart. */
export function sessionTokenOfLength(length: number, seed = 'modelloop-twin-session'): string {
  let token = 'IQoJb3JpZ2luX2Vj';
  for (let block = 0; token.length < length; block += 1) token += createHash('sha512').update(`${seed}-${block}`).digest('base64');
  return token.slice(0, length);
}
