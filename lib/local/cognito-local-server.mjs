// Runs cognito-local in its data directory (this process's working directory). Codes it would e-mail are written
// as one JSON line each, synchronously, the moment they are made ({"delivery":{"email","code"}}): its own console
// sender prints them through a buffered logger that can hold a code back until the next request.
import { writeSync } from 'node:fs';
import { createRequire } from 'node:module';

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

// Cognito's ResendConfirmationCode, which cognito-local lacks (it answers "Unsupported x-amz-target header"): a new
// sign-up code for an unconfirmed user, sent the way SignUp sends its first one (the pool's messages service, whose
// console sender is the mailbox line above), and kept as the code ConfirmSignUp checks. As Cognito does, an unknown
// user is UserNotFoundException and a confirmed one InvalidParameterException.
// https://docs.aws.amazon.com/cognito-user-identity-pools/latest/APIReference/API_ResendConfirmationCode.html
const { UserNotFoundError, InvalidParameterError } = require('./lib/errors');
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

const logger = pino({ level: process.env.DEBUG ? 'debug' : 'warn' });
const server = await createDefaultServer(logger);
await server.start();
writeSync(1, `${JSON.stringify({ msg: 'cognito-local ready' })}\n`);
