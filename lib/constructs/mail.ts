// What the support mail's function may send through SES. SES authorizes ses:SendEmail on every resource the mail
// involves: the Service Authorization Reference lists `identity` (required) and `configuration-set` as SendEmail's
// resource types (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonses.html), and the SES
// guide's "Identity and access management in Amazon SES" (https://docs.aws.amazon.com/ses/latest/dg/control-user-access.html)
// notes that the sandbox changes what these policies must allow: while the account is in the sandbox, SES checks the
// recipients as identities too. So the grant names the sender (address and its domain, either may be the verified
// identity), the recipient (address and domain) and the configuration set when one is named; nothing else.
import { Stack } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';

/** The SES identity ARNs an address may be verified as: the address itself, or its domain. */
export function identityArns(stack: Stack, address: string): string[] {
  const domain = address.split('@')[1]!;
  return [address, domain].map((resourceName) => stack.formatArn({ service: 'ses', resource: 'identity', resourceName }));
}

export function grantSupportMail(fn: IFunction, mail: { to: string; from: string }, configurationSet?: string): void {
  const stack = Stack.of(fn);
  const resources = [...new Set([...identityArns(stack, mail.from), ...identityArns(stack, mail.to)])];
  if (configurationSet) resources.push(stack.formatArn({ service: 'ses', resource: 'configuration-set', resourceName: configurationSet }));
  const role = fn.role;
  if (!role) throw new Error(`Function ${fn.node.path} has no role to grant SES to`);
  role.addToPrincipalPolicy(new PolicyStatement({ actions: ['ses:SendEmail'], resources }));
}
