// The twin's front of cognito-local lets through unsigned exactly the operations Cognito answers without AWS
// credentials: those the AWS SDK's own model of the service marks optional-auth (its httpAuthSchemeProvider lists
// them), so a new SDK that adds or moves one is seen here, not in the cloud.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expect, it } from 'vitest';
import { PUBLIC_OPERATIONS } from '../../lib/local/cognito-local.js';

it('lets through unsigned exactly the operations the SDK calls without credentials', () => {
  const client = dirname(createRequire(import.meta.url).resolve('@aws-sdk/client-cognito-identity-provider/package.json'));
  const provider = readFileSync(join(client, 'dist-es', 'auth', 'httpAuthSchemeProvider.js'), 'utf8');
  const optionalAuth = [...provider.matchAll(/case "(\w+)"/g)].map((match) => match[1]).sort();
  expect(optionalAuth.length).toBeGreaterThan(20);
  expect([...PUBLIC_OPERATIONS].sort()).toEqual(optionalAuth);
});
