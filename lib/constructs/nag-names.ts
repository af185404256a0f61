// How cdk-nag names a resource in a finding's id (`AwsSolutions-IAM5[Resource::<name>]`): the resolved value, with
// { Ref: X } written <X> and { Fn::GetAtt: [X, A] } written <X.A>. A literal region (and with it the partition)
// resolves to text, so an acknowledgement must be built from the ARN as granted, not from a guess of its tokens.
import { Stack } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

function render(value: unknown): string {
  if (typeof value === 'string') return value;
  const node = value as Record<string, unknown>;
  if (typeof node.Ref === 'string') return `<${node.Ref}>`;
  if (Array.isArray(node['Fn::GetAtt'])) return `<${(node['Fn::GetAtt'] as string[]).join('.')}>`;
  if (Array.isArray(node['Fn::Join'])) {
    const [separator, parts] = node['Fn::Join'] as [string, unknown[]];
    return parts.map(render).join(separator);
  }
  throw new Error(`No cdk-nag name for ${JSON.stringify(value)}`);
}

export function nagResourceName(scope: IConstruct, resource: string): string {
  return render(Stack.of(scope).resolve(resource));
}
