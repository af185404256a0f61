// URLs are signed in sessions of the stage's URL-signer role (issue 47 item 5): a Lambda function is never told when its
// own role session ends, and a URL dies with the session that signed it. As synthesized: the signer role may be assumed
// by this stack's roles only; each function with bucket access may assume it and is given a session policy of exactly
// its own S3 access; a function without bucket access gets neither.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resourcesOfType, synthModelLoop, type Synthesized } from './synth.js';

let s: Synthesized;
beforeAll(() => {
  s = synthModelLoop({ nag: false });
});
afterAll(() => s?.dispose());

const idOf = (construct: { node: { defaultChild?: unknown } } | unknown) =>
  s.stack.getLogicalId(((construct as { node: { defaultChild?: unknown } }).node.defaultChild ?? construct) as never);
const text = (value: unknown) => JSON.stringify(value);

describe('the URL-signer role', () => {
  const signerId = () => resourcesOfType(s.json, 'AWS::IAM::Role').find(([id]) => id.startsWith('UrlSignerRole'))![0];

  it('may be assumed by the roles of this stack only, and may do in the data buckets what a function may be granted', () => {
    const role = s.json.Resources[signerId()]!.Properties!;
    const [trust] = role.AssumeRolePolicyDocument.Statement as { Principal: unknown; Condition: unknown; Action: string }[];
    expect(trust!.Action).toBe('sts:AssumeRole');
    expect(text(trust!.Principal)).toContain(':root');
    expect(text(trust!.Condition)).toMatch(/ArnLike.*aws:PrincipalArn.*:role\/.*AWS::StackName/);
    const policy = resourcesOfType(s.json, 'AWS::IAM::Policy').find(([, p]) => text(p.Properties!.Roles).includes(signerId()))![1];
    const actions = (policy.Properties!.PolicyDocument.Statement as { Action: string | string[] }[]).flatMap((statement) => statement.Action);
    expect(new Set(actions)).toEqual(new Set(['s3:ListBucket', 's3:GetObject', 's3:PutObject', 's3:PutObjectTagging', 's3:DeleteObject']));
  });

  it('signs for each function with bucket access, narrowed to that function’s own access; not for the others', () => {
    const functions = resourcesOfType(s.json, 'AWS::Lambda::Function');
    const env = (handlerPrefix: string) => functions.find(([id]) => id.startsWith(handlerPrefix))![1].Properties!.Environment.Variables as Record<string, unknown>;
    // GET /clothing-items reads the clothing images only: its sessions may read them, and nothing else.
    const listing = env('HttpApiListClothingItemsFunction');
    expect(text(listing.URL_SIGNER_ROLE_ARN)).toContain(signerId());
    const sessionPolicy = text(listing.URL_SIGNER_SESSION_POLICY);
    expect(sessionPolicy).toContain('s3:GetObject');
    expect(sessionPolicy).not.toContain('s3:PutObject');
    expect(sessionPolicy).toContain(idOf(s.stack.storage.buckets.clothingImages));
    expect(sessionPolicy).not.toContain(idOf(s.stack.storage.buckets.results));
    // An upload signer may only put.
    const uploads = text(env('HttpApiCreateClothingUploadUrlFunction').URL_SIGNER_SESSION_POLICY);
    expect(uploads).toContain('s3:PutObject');
    expect(uploads).not.toContain('s3:GetObject');
    // The pricing list touches no bucket: no signer.
    expect(env('HttpApiListPricingTiersFunction').URL_SIGNER_ROLE_ARN).toBeUndefined();

    const listingRole = (functions.find(([id]) => id.startsWith('HttpApiListClothingItemsFunction'))![1].Properties!.Role as { 'Fn::GetAtt': [string] })['Fn::GetAtt'][0];
    const statements = resourcesOfType(s.json, 'AWS::IAM::Policy')
      .filter(([, p]) => text(p.Properties!.Roles).includes(listingRole))
      .flatMap(([, p]) => p.Properties!.PolicyDocument.Statement as { Action: unknown; Resource: unknown }[]);
    expect(statements.filter((statement) => text(statement.Action).includes('sts:AssumeRole')).map((statement) => text(statement.Resource))).toEqual([
      expect.stringContaining(signerId()),
    ]);
  });
});
