// The Cognito user pool, for the functions that find users (a profile made by an API key's first call) and the one
// that deletes them (the delete-account workflow). The pool comes from USER_POOL_ID; on the twin
// AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER points the client at cognito-local.
//
// A user's name in the pool is not always their sub. A user who signed up with an e-mail has their sub as name; one
// who signed in with Google is `Google_<id>`, and AdminDeleteUser's Username must be "the username of a user from a
// third-party IdP" or "the sub of a local user" (Cognito API reference, AdminDeleteUser): given a federated user's
// sub it answers UserNotFoundException. So a user is deleted by the name their profile keeps (the ID token's
// `cognito:username`), and "not found" is believed only after ListUsers by sub finds nobody either.
import {
  AdminDeleteUserCommand,
  CognitoIdentityProviderClient,
  ListUsersCommand,
  type UserType,
} from '@aws-sdk/client-cognito-identity-provider';
import { requireEnv, USER_POOL_ENV } from './config.js';

const cognito = /* @__PURE__ */ new CognitoIdentityProviderClient({});

export interface PoolUser {
  username: string;
  email: string;
  /** When the user was created in the pool, ISO 8601. */
  createdAt: string;
}

const isNotFound = (error: unknown) => (error as Error).name === 'UserNotFoundException';

function poolUserOf(user: UserType): PoolUser {
  const email = user.Attributes?.find((attribute) => attribute.Name === 'email')?.Value ?? '';
  return { username: user.Username!, email, createdAt: (user.UserCreateDate ?? new Date()).toISOString() };
}

/** The pool's user with this sub (ListUsers with a `sub` filter), or undefined when there is none. */
export async function findPoolUser(sub: string): Promise<PoolUser | undefined> {
  // A sub is a UUID; anything else can't be one, and must not reach the filter's quoted string.
  if (!/^[0-9a-f-]{36}$/i.test(sub)) return undefined;
  const { Users } = await cognito.send(new ListUsersCommand({ UserPoolId: requireEnv(USER_POOL_ENV), Filter: `sub = "${sub}"`, Limit: 1 }));
  const user = Users?.find((found) => found.Username && found.Attributes?.some((attribute) => attribute.Name === 'sub' && attribute.Value === sub));
  return user && poolUserOf(user);
}

/**
 * Deletes the user so nobody can sign in as them again: by `username` (the profile's; the sub when it has none), and
 * when the pool knows no user of that name, by the name ListUsers finds for the sub. Done when neither finds one.
 */
export async function deletePoolUser(sub: string, username = sub): Promise<void> {
  const pool = requireEnv(USER_POOL_ENV);
  try {
    await cognito.send(new AdminDeleteUserCommand({ UserPoolId: pool, Username: username }));
    return;
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  const found = await findPoolUser(sub);
  if (!found) return;
  try {
    await cognito.send(new AdminDeleteUserCommand({ UserPoolId: pool, Username: found.username }));
  } catch (error) {
    // Deleted between the two calls (a retried step): what ListUsers says now decides.
    if (!isNotFound(error) || (await findPoolUser(sub))) throw error;
  }
}
