// What the support mail's function may send through SES. SES authorizes ses:SendEmail on every resource the mail
// involves: the Service Authorization Reference lists `identity` (required) and `configuration-set` as SendEmail's
// resource types (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonses.html), and the SES
// guide's "Identity and access management in Amazon SES" (https://docs.aws.amazon.com/ses/latest/dg/control-user-access.html)
// notes that the sandbox changes what these policies must allow: while the account is in the sandbox, SES checks the
// recipients as identities too. So the grant names the sender (address and its domain, either may be the verified
// identity), the recipient (address and domain) and the configuration set when one is named; nothing else.
import { Stack } from 'aws-cdk-lib';
import type { ModelLoopConfig } from '../config.js';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';

/** The SES identity ARNs an address may be verified as: the address itself, or its domain. */
export function identityArns(stack: Stack, address: string): string[] {
  const domain = address.split('@')[1]!;
  return [address, domain].map((resourceName) => stack.formatArn({ service: 'ses', resource: 'identity', resourceName }));
}

export function grantSupportMail(fn: IFunction, mail: { to: string; from: string }, configurationSet?: string): void {
  grantSendEmail(fn, [mail.from, mail.to], configurationSet);
}

/**
 * Mail to the account's own address (an export ready): the grant names the sender and the configuration set; the
 * recipient is any seller, which SES checks as an identity only in the sandbox (where such a mail is refused anyway:
 * mailWarnings).
 */
export function grantMailToSellers(fn: IFunction, from: string, configurationSet?: string): void {
  grantSendEmail(fn, [from], configurationSet);
}

function grantSendEmail(fn: IFunction, addresses: string[], configurationSet: string | undefined): void {
  const stack = Stack.of(fn);
  const resources = [...new Set(addresses.flatMap((address) => identityArns(stack, address)))];
  if (configurationSet) resources.push(stack.formatArn({ service: 'ses', resource: 'configuration-set', resourceName: configurationSet }));
  const role = fn.role;
  if (!role) throw new Error(`Function ${fn.node.path} has no role to grant SES to`);
  role.addToPrincipalPolicy(new PolicyStatement({ actions: ['ses:SendEmail'], resources }));
}

/**
 * What synth says about a stage's mail settings. "We place all new accounts in the Amazon SES sandbox. The sandbox
 * status for your account is unique per each AWS Region. […] You can only send mail to verified email addresses and
 * domains, or to the Amazon SES mailbox simulator." (SES developer guide, "Request production access (Moving out of the
 * Amazon SES sandbox)", https://docs.aws.amazon.com/ses/latest/dg/request-production-access.html, read 2026-11): sign-up
 * codes sent through SES from such an account never reach a new user. So moving Cognito's mail to SES
 * (authFromEmail) on an account the stage says is in the sandbox (sesSandbox, true until set false) is warned about,
 * and a stage whose support mail goes through SES hears that its sign-up codes do not follow (they did until round 5:
 * authFromEmail defaulted to supportFromEmail, which moved the codes into the sandbox unannounced).
 */
export function mailWarnings(config: Pick<ModelLoopConfig, 'authFromEmail' | 'supportEmail' | 'sesSandbox'>): { id: string; message: string }[] {
  const warnings: { id: string; message: string }[] = [];
  if (config.authFromEmail && config.sesSandbox) {
    warnings.push({
      id: 'modelloop:sign-up-codes-in-ses-sandbox',
      message:
        `Context authFromEmail (${config.authFromEmail}) moves sign-up and password codes to SES, and context sesSandbox says this account's SES is in the ` +
        'sandbox, where SES delivers only to verified addresses: new users would never receive their codes. Request SES production access ' +
        '(SES console, Account dashboard) and deploy with -c sesSandbox=false, or leave authFromEmail unset to keep Cognito\'s own sender (about 50 mails a day).',
    });
  }
  if (config.supportEmail && !config.authFromEmail) {
    warnings.push({
      id: 'modelloop:sign-up-codes-not-in-ses',
      message:
        `Support mail goes through SES from ${config.supportEmail.from}; sign-up and password codes stay with Cognito's own sender (about 50 mails a day). ` +
        'Set context authFromEmail to send them through SES as well, once the account has SES production access.',
    });
  }
  return warnings;
}
