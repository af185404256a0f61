// The Cognito user pool, for the one function that deletes users (the delete-account workflow's last step). The pool
// comes from USER_POOL_ID; on the twin AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER points the client at cognito-local.
import { AdminDeleteUserCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { requireEnv, USER_POOL_ENV } from './config.js';

const cognito = /* @__PURE__ */ new CognitoIdentityProviderClient({});

/**
 * Deletes the user (by sub: the pool signs in by e-mail, so a user's name is their sub), so nobody can sign in as
 * them again. A user already gone counts as deleted.
 */
export async function deletePoolUser(userId: string): Promise<void> {
  try {
    await cognito.send(new AdminDeleteUserCommand({ UserPoolId: requireEnv(USER_POOL_ENV), Username: userId }));
  } catch (error) {
    if ((error as Error).name !== 'UserNotFoundException') throw error;
  }
}
