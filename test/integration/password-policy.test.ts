// The twin follows the cloud's password policy (lambdas/contracts/password-policy.ts): cognito-local, called over
// HTTP as the web app's Amplify calls it, refuses at sign-up (and on a reset) a password that breaks a rule, with
// Cognito's InvalidPasswordException naming the rule; a password meeting every rule signs up.
import { ConfirmForgotPasswordCommand, ForgotPasswordCommand, SignUpCommand } from '@aws-sdk/client-cognito-identity-provider';
import { describe, expect, inject, it } from 'vitest';
import { PASSWORD_RULES } from '../../lambdas/contracts/password-policy.js';
import { cognitoClient, createUser, signIn, uniqueEmail, waitForCode } from '../support/users.js';

const twin = inject('twin');
const cognito = cognitoClient(twin);

async function refusal(send: () => Promise<unknown>): Promise<{ name: string; message: string } | undefined> {
  try {
    await send();
    return undefined;
  } catch (error) {
    return { name: (error as Error).name, message: (error as Error).message };
  }
}

const signUp = (email: string, password: string) =>
  refusal(() => cognito.send(new SignUpCommand({ ClientId: twin.userPoolClientId, Username: email, Password: password, UserAttributes: [{ Name: 'email', Value: email }] })));

describe('the password policy on the twin', () => {
  it('refuses at sign-up a password that breaks any rule, naming the rule, and creates no account', async () => {
    const broken: Record<string, string> = { length: 'Ab1!xyz', uppercase: 'abcdef1!', lowercase: 'ABCDEF1!', digit: 'Abcdefg!', symbol: 'Abcdefg1' };
    expect(Object.keys(broken).sort()).toEqual(PASSWORD_RULES.map((rule) => rule.id).sort());
    for (const rule of PASSWORD_RULES) {
      const email = uniqueEmail(`weak-${rule.id}`);
      expect(await signUp(email, broken[rule.id]!), rule.id).toEqual({ name: 'InvalidPasswordException', message: `Password did not conform with policy: ${rule.refusal}` });
      // No account was made: the same address signs up with a good password.
      expect(await signUp(email, 'Good-pass-1'), rule.id).toBeUndefined();
    }
    expect(await signUp(uniqueEmail('weak'), 'abc')).toMatchObject({ name: 'InvalidPasswordException', message: 'Password did not conform with policy: Password not long enough' });
  });

  it('signs up a password that meets every rule, and refuses a weak one on a reset', async () => {
    const user = await createUser(twin, uniqueEmail('strong'), 'Strong-pass-9');
    await cognito.send(new ForgotPasswordCommand({ ClientId: twin.userPoolClientId, Username: user.email }));
    const code = await waitForCode(twin.mailboxFile, user.email);
    expect(await refusal(() => cognito.send(new ConfirmForgotPasswordCommand({ ClientId: twin.userPoolClientId, Username: user.email, ConfirmationCode: code, Password: 'password' })))).toMatchObject({
      name: 'InvalidPasswordException',
    });
    expect((await signIn(twin, user.email, 'Strong-pass-9')).sub).toBe(user.sub);
  });
});
