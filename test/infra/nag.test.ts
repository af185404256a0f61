// cdk-nag's AWS Solutions pack runs as a validation plugin on every synth: any finding that is not acknowledged
// (with its reason, next to the resource) fails synthesis and lands in the validation report.
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CfnElement } from 'aws-cdk-lib';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { ROUTES } from '../../lambdas/routes.js';
import { nagFindings, synthModelLoop, type Synthesized } from './synth.js';

const findings = (s: Synthesized): string[] => nagFindings(s.assembly.directory);

describe('cdk-nag AwsSolutions', () => {
  it('finds nothing unacknowledged in the default stack, bundled as `cdk synth` bundles it', () => {
    const synthesized = synthModelLoop({ bundle: true });
    try {
      expect(findings(synthesized)).toEqual([]);

      // Each route function is one ESM file that imports nothing but Node built-ins (the AWS SDK is inside it) and
      // sharp, the one native module, which must then sit beside it in node_modules.
      for (const route of ROUTES) {
        const fn = synthesized.stack.httpApi.functions[route.handler];
        const functionId = synthesized.stack.getLogicalId(fn.node.defaultChild as CfnElement);
        const assetHash = String(synthesized.json.Resources[functionId]!.Properties!.Code.S3Key).replace(/\.zip$/, '');
        const assetDirectory = join(synthesized.assembly.directory, `asset.${assetHash}`);
        const bundle = readFileSync(join(assetDirectory, 'index.mjs'), 'utf8');
        expect(bundle.startsWith('import { createRequire'), route.handler).toBe(true);
        // The caller gate (USER_ROUTE_PRELUDE) is bundled ahead of every user route's handler and of no public route's
        // (its log line is a string only the gate holds).
        expect(bundle.includes('caller gate: the account is deleted'), `${route.handler} carries the caller gate`).toBe(route.auth === 'user');
        // Static imports and run-time ones (a function that decodes only some requests loads sharp at first use). A
        // specifier is one word-like token: "from" and a quote also occur inside bundled strings (a library's messages).
        const imported = [...bundle.matchAll(/\bfrom\s*["']([^"'\s+(){},]+)["']|\bimport\s*\(\s*["']([^"'\s+(){},]+)["']\s*\)/g)].map(
          (match) => match[1] ?? match[2],
        );
        // Built-ins may come without the node: prefix (stripe's ESM build imports 'crypto', archiver 'stream').
        const packages = imported.filter((specifier) => !specifier?.startsWith('node:') && !builtinModules.includes(specifier ?? ''));
        // sharp's packages sit beside a function exactly when it imports sharp: test/infra/lean-functions.test.ts.
        expect(packages.filter((specifier) => specifier !== 'sharp'), route.handler).toEqual([]);
      }
    } finally {
      synthesized.dispose();
    }
  });

  it('finds nothing unacknowledged with Google sign-in and test payments on a retained stage', () => {
    const synthesized = synthModelLoop({
      context: { stage: 'staging', webOrigins: 'https://studio.example.com', googleClientId: 'client-123.apps.googleusercontent.com', testPayments: true },
    });
    try {
      expect(findings(synthesized)).toEqual([]);
    } finally {
      synthesized.dispose();
    }
  });

  it('accepts a function granted bucket access: the object wildcard is acknowledged where it is granted', () => {
    // No route uses a bucket yet; this is the grant those routes will get from the function factory.
    const synthesized = synthModelLoop({
      modify: (stack) =>
        stack.functions.create(stack, 'BucketUser', {
          handler: ROUTES[0]!.handler,
          buckets: { clothingImages: 'write', results: 'read' },
        }),
    });
    try {
      expect(findings(synthesized)).toEqual([]);
    } finally {
      synthesized.dispose();
    }
  });

  it('fails synthesis on an unacknowledged finding', () => {
    expect(() =>
      synthModelLoop({ modify: (stack) => new Bucket(stack, 'UncheckedBucket') }),
    ).toThrow(/AwsSolutions-S1[\s\S]*UncheckedBucket|UncheckedBucket[\s\S]*AwsSolutions-S1/);
  });
});
