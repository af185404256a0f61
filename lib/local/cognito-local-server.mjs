// Runs cognito-local in its data directory (this process's working directory). Codes it would e-mail are written
// as one JSON line each, synchronously, the moment they are made ({"delivery":{"email","code"}}): its own console
// sender prints them through a buffered logger that can hold a code back until the next request.
import { randomUUID } from 'node:crypto';
import { writeSync } from 'node:fs';
import { createRequire } from 'node:module';

// The twin holds the other end of this process's standard input (lib/local/processes.ts): when the twin is gone,
// however it ended, the input ends and so does this process.
process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
process.stdin.resume();

const require = createRequire(createRequire(import.meta.url).resolve('cognito-local/package.json'));
const pino = require('pino');
const { ConsoleMessageSender } = require('./lib/services/messageDelivery/consoleMessageSender');
const { createDefaultServer } = require('./lib/server');

ConsoleMessageSender.prototype.sendToConsole = (_ctx, _user, destination, { __code }) => {
  writeSync(1, `${JSON.stringify({ delivery: { email: destination, code: __code } })}\n`);
  return Promise.resolve();
};

// Cognito checks a new password against the pool's policy; cognito-local doesn't. The twin passes the policy's rules
// (lambdas/contracts/password-policy.ts, through MODELLOOP_PASSWORD_RULES) and every target that sets a password
// refuses one that breaks a rule, as Cognito does: InvalidPasswordException naming the first rule broken.
const { Targets } = require('./lib/targets/targets');
const { CognitoError } = require('./lib/errors');
const passwordRules = JSON.parse(process.env.MODELLOOP_PASSWORD_RULES ?? '[]').map((rule) => ({ pattern: new RegExp(rule.source, rule.flags), message: rule.message }));
const PASSWORD_FIELDS = { SignUp: 'Password', ConfirmForgotPassword: 'Password', ChangePassword: 'ProposedPassword', AdminSetUserPassword: 'Password' };
for (const [target, field] of Object.entries(PASSWORD_FIELDS)) {
  const original = Targets[target];
  Targets[target] = (services) => {
    const run = original(services);
    return (ctx, req) => {
      const broken = passwordRules.find((rule) => !rule.pattern.test(String(req?.[field] ?? '')));
      if (broken) return Promise.reject(new CognitoError('InvalidPasswordException', broken.message));
      return run(ctx, req);
    };
  };
}

// Cognito finds the user an admin call names by their username, or by the sub of a local user; a user from a
// third-party IdP (`Google_<id>`) only by their username: AdminDeleteUser's Username is "the username of a user from
// a third-party IdP" or "the sub of a local user" (Cognito API reference), and a federated user's sub answers
// UserNotFoundException. cognito-local matches every user's sub, so these targets refuse what Cognito refuses.
const { UserNotFoundError } = require('./lib/errors');
const USER_NAMING_TARGETS = ['AdminDeleteUser', 'AdminGetUser', 'AdminUpdateUserAttributes', 'AdminDeleteUserAttributes', 'AdminDisableUser', 'AdminEnableUser', 'AdminSetUserPassword'];
for (const target of USER_NAMING_TARGETS) {
  const original = Targets[target];
  if (!original) continue;
  Targets[target] = (services) => {
    const run = original(services);
    return async (ctx, req) => {
      const pool = await services.cognito.getUserPool(ctx, req.UserPoolId);
      const user = await pool.getUserByUsername(ctx, req.Username);
      if (user && user.Username !== req.Username && user.UserStatus === 'EXTERNAL_PROVIDER') throw new UserNotFoundError('User does not exist.');
      return run(ctx, req);
    };
  };
}

// Cognito marks the address verified when the user confirms their sign-up with the code it mailed there (the pool
// auto-verifies e-mail); cognito-local confirms the user but leaves email_verified out, so its ID tokens said false.
const confirmSignUp = Targets.ConfirmSignUp;
Targets.ConfirmSignUp = (services) => {
  const run = confirmSignUp(services);
  return async (ctx, req) => {
    const result = await run(ctx, req);
    const pool = await services.cognito.getUserPoolForClientId(ctx, req.ClientId);
    const user = await pool.getUserByUsername(ctx, req.Username);
    const hasEmail = user?.Attributes?.some((attribute) => attribute.Name === 'email');
    if (user && hasEmail && pool.options.AutoVerifiedAttributes?.includes('email')) {
      const Attributes = [...user.Attributes.filter((attribute) => attribute.Name !== 'email_verified'), { Name: 'email_verified', Value: 'true' }];
      await pool.saveUser(ctx, { ...user, Attributes: Attributes.sort((a, b) => a.Name.localeCompare(b.Name)) });
    }
    return result;
  };
};

// The hosted UI's sign-in with Google, which the twin has no page for (target TwinFederatedSignIn, for tests): the
// first sign-in of a provider identity makes the user Cognito makes for it (username `<Provider>_<id>`, a sub of its
// own, status EXTERNAL_PROVIDER, the `identities` attribute, the e-mail the provider vouches for), and each sign-in
// answers that user's tokens, as the hosted UI's code exchange does.
Targets.TwinFederatedSignIn = (services) => async (ctx, req) => {
  const { ClientId, ProviderName, ProviderUserId, Email } = req ?? {};
  if (!ClientId || !/^[A-Za-z]+$/.test(ProviderName ?? '') || !/^[\w.-]+$/.test(ProviderUserId ?? '') || !Email) {
    throw new CognitoError('InvalidParameterException', 'ClientId, ProviderName, ProviderUserId and Email are required');
  }
  const pool = await services.cognito.getUserPoolForClientId(ctx, ClientId);
  const client = await services.cognito.getAppClient(ctx, ClientId);
  const username = `${ProviderName}_${ProviderUserId}`;
  let user = await pool.getUserByUsername(ctx, username);
  if (!user) {
    const now = services.clock.get();
    const identities = [{ userId: ProviderUserId, providerName: ProviderName, providerType: ProviderName, issuer: null, primary: 'true', dateCreated: String(now.getTime()) }];
    user = {
      Username: username,
      Attributes: [
        { Name: 'email', Value: Email },
        { Name: 'email_verified', Value: 'true' },
        { Name: 'identities', Value: JSON.stringify(identities) },
        { Name: 'sub', Value: randomUUID() },
      ],
      Enabled: true,
      UserStatus: 'EXTERNAL_PROVIDER',
      UserCreateDate: now,
      UserLastModifiedDate: now,
      RefreshTokens: [],
    };
    await pool.saveUser(ctx, user);
  }
  const groups = await pool.listUserGroupMembership(ctx, user);
  const tokens = await services.tokenGenerator.generate(ctx, user, groups, client, undefined, 'Authentication');
  return { AuthenticationResult: { IdToken: tokens.IdToken, AccessToken: tokens.AccessToken, TokenType: 'Bearer' } };
};

// Cognito's ResendConfirmationCode, which cognito-local lacks (it answers "Unsupported x-amz-target header"): a new
// sign-up code for an unconfirmed user, sent the way SignUp sends its first one (the pool's messages service, whose
// console sender is the mailbox line above), and kept as the code ConfirmSignUp checks. As Cognito does, an unknown
// user is UserNotFoundException and a confirmed one InvalidParameterException.
// https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_ResendConfirmationCode.html
const { InvalidParameterError } = require('./lib/errors');
const { attributeValue } = require('./lib/services/userPoolService');
Targets.ResendConfirmationCode = ({ cognito, clock, messages, otp }) => async (ctx, req) => {
  const userPool = await cognito.getUserPoolForClientId(ctx, req.ClientId);
  const user = await userPool.getUserByUsername(ctx, req.Username);
  if (!user) throw new UserNotFoundError();
  if (user.UserStatus !== 'UNCONFIRMED') throw new InvalidParameterError('User is already confirmed.');
  const email = attributeValue('email', user.Attributes);
  if (!email) throw new InvalidParameterError('User has no e-mail address to send a code to.');
  const deliveryDetails = { AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: email };
  const code = otp();
  await messages.deliver(ctx, 'ResendCode', req.ClientId, userPool.options.Id, user, code, req.ClientMetadata, deliveryDetails);
  await userPool.saveUser(ctx, { ...user, UserLastModifiedDate: clock.get(), ConfirmationCode: code });
  return { CodeDeliveryDetails: deliveryDetails };
};

// The tokens' issuer is the twin's front (lib/local/cognito-local.ts), not this server's own port.
const { DefaultConfig } = require('./lib/server/config');
if (process.env.MODELLOOP_COGNITO_ISSUER_DOMAIN) DefaultConfig.TokenConfig.IssuerDomain = process.env.MODELLOOP_COGNITO_ISSUER_DOMAIN;

const logger = pino({ level: process.env.DEBUG ? 'debug' : 'warn' });
const server = await createDefaultServer(logger);
await server.start();
writeSync(1, `${JSON.stringify({ msg: 'cognito-local ready' })}\n`);
