// CloudFormation refuses a stack of more than 500 resources. The studio is one stack; what each feature adds is
// counted here against a margin, so the next feature finds out at its first synth, not at deploy time.
import { describe, expect, it } from 'vitest';
import { synthModelLoop } from './synth.js';

/** CloudFormation's limit, less room for one more feature's functions, routes and alarms. */
const RESOURCE_BUDGET = 480;

describe('resource budget', () => {
  it(`keeps the default stack under ${RESOURCE_BUDGET} resources (CloudFormation allows 500)`, () => {
    const { assembly, stack } = synthModelLoop({ nag: false });
    // The stack's own template: a nested stack (the operations') counts as one resource of it.
    const count = Object.keys(assembly.getStackArtifact(stack.artifactId).template.Resources ?? {}).length;
    console.log(`resources in the default stack: ${count}`);
    expect(count).toBeLessThanOrEqual(RESOURCE_BUDGET);
  });
});
