// The role whose sessions sign the URLs the functions hand out (lambdas/storage/signing-session.ts). A Lambda function
// is never told when its own role session ends, and a URL dies with the session that signed it; a session of this
// role, asked for with STS AssumeRole, comes with its Expiration, so every URL is signed for no longer than it lasts.
// The role may do in the data buckets what any function may sign (read, list, put with tags, delete); each function's
// session is narrowed by a session policy to that function's own S3 access, so a URL signs nothing the function could
// not do itself ("the resulting session's permissions are the intersection of the role's identity-based policy and
// the session policies", STS API reference, AssumeRole, read 2026-11).
import { Aws, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import { AccountPrincipal, PolicyStatement, Role } from 'aws-cdk-lib/aws-iam';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import type { Bucket } from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { URL_SIGNER_ENV } from '../../lambdas/storage/signing-session.js';

export interface UrlSignerProps {
  buckets: Bucket[];
  /** Every object action a function may be granted in the data buckets (function-factory.ts). */
  objectActions: string[];
}

export class UrlSigner extends Construct {
  readonly role: Role;

  constructor(scope: Construct, id: string, props: UrlSignerProps) {
    super(scope, id);
    const stack = Stack.of(this);
    // The functions' own roles, and no other principal: every role of this stack is named <stack name>-… by
    // CloudFormation, and each function role's identity policy allows AssumeRole of this role (allow()).
    this.role = new Role(this, 'Role', {
      description: 'Signs the URLs of the data buckets, in sessions narrowed to each function\'s own access',
      assumedBy: new AccountPrincipal(stack.account).withConditions({ ArnLike: { 'aws:PrincipalArn': `arn:${Aws.PARTITION}:iam::${Aws.ACCOUNT_ID}:role/${Aws.STACK_NAME}-*` } }),
    });
    for (const bucket of props.buckets) {
      this.role.addToPolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn] }));
      this.role.addToPolicy(new PolicyStatement({ actions: props.objectActions, resources: [bucket.arnForObjects('*')] }));
      Validations.of(this.role).acknowledge({
        id: `AwsSolutions-IAM5[Resource::<${stack.getLogicalId(bucket.node.defaultChild as CfnElement)}.Arn>/*]`,
        reason: 'Object keys are chosen per user and request at run time; each signing session is narrowed to its function\'s own access by a session policy.',
      });
    }
  }

  /** Lets `fn` sign URLs: the role to assume, the session policy of its own S3 access, and AssumeRole of this role only. */
  allow(fn: IFunction & { addEnvironment(key: string, value: string): unknown }, ownAccess: PolicyStatement[]): void {
    fn.addEnvironment(URL_SIGNER_ENV.role, this.role.roleArn);
    fn.addEnvironment(URL_SIGNER_ENV.policy, Stack.of(fn).toJsonString({ Version: '2012-10-17', Statement: ownAccess.map((statement) => statement.toStatementJson()) }));
    fn.role!.addToPrincipalPolicy(new PolicyStatement({ actions: ['sts:AssumeRole'], resources: [this.role.roleArn] }));
  }
}
