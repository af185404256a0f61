// CloudFormation refuses a stack of more than 500 resources. The studio is a parent stack with nested stacks (the
// HTTP API's routes, integrations and invoke permissions; the operations' alarms and dashboard); what each feature
// adds is counted here against a margin, so the next feature finds out at its first synth, not at deploy time.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NestedStack } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { synthModelLoop } from './synth.js';

/**
 * The parent's budget: CloudFormation's 500 less room for a few features' functions, roles and policies (about
 * four resources a route stay in the parent: function, role, policy, and a share of the grants). Publishing to Shopify
 * (ten routes, three workflow tasks and a deletion step, two tables, a workflow) took the parent from about 365 to 417
 * resources; round 5's other work (the export workflow, the URL-signer role, the daily model check, the cutout brush's
 * two routes) took it to 448. This budget leaves 40 for fixes: the next feature's functions need the routes' functions
 * split into nested stacks first.
 */
const PARENT_BUDGET = 460;
/** Each nested stack's budget: 500 less room for more than one feature's routes or alarms. */
const NESTED_BUDGET = 450;
/**
 * CloudFormation allows a template 200 parameters and 200 outputs: a nested stack takes what it references from the
 * parent as parameters (the routes' stack: one a route function, the API and its authorizers).
 */
const NESTED_PARAMETER_BUDGET = 150;

describe('resource budget', () => {
  const { assembly, stack } = synthModelLoop({ nag: false });
  type Template = { Resources?: Record<string, unknown>; Parameters?: Record<string, unknown>; Outputs?: Record<string, unknown> };
  const countOf = (template: Template) => Object.keys(template.Resources ?? {}).length;
  const nestedStacks = () => stack.node.findAll().filter((construct): construct is NestedStack => NestedStack.isNestedStack(construct));
  const nestedTemplate = (nested: NestedStack) => JSON.parse(readFileSync(join(assembly.directory, nested.templateFile), 'utf8')) as Template;

  it(`keeps the parent stack at most ${PARENT_BUDGET} resources (CloudFormation allows 500)`, () => {
    // The stack's own template: each nested stack counts as one resource of it.
    const count = countOf(assembly.getStackArtifact(stack.artifactId).template);
    console.log(`resources in the parent stack: ${count}`);
    expect(count).toBeLessThanOrEqual(PARENT_BUDGET);
  });

  it(`keeps each nested stack at most ${NESTED_BUDGET} resources`, () => {
    expect(nestedStacks().map((nested) => nested.node.id).sort()).toEqual(['ApiRoutesStack', 'OperationsStack']);
    for (const nested of nestedStacks()) {
      const count = countOf(nestedTemplate(nested));
      console.log(`resources in the nested stack ${nested.node.id}: ${count}`);
      expect(count, nested.node.id).toBeLessThanOrEqual(NESTED_BUDGET);
    }
  });

  it(`keeps each nested stack's parameters and outputs at most ${NESTED_PARAMETER_BUDGET} (CloudFormation allows 200)`, () => {
    for (const nested of nestedStacks()) {
      const template = nestedTemplate(nested);
      const parameters = Object.keys(template.Parameters ?? {}).length;
      const outputs = Object.keys(template.Outputs ?? {}).length;
      console.log(`nested stack ${nested.node.id}: ${parameters} parameters, ${outputs} outputs`);
      expect(parameters, nested.node.id).toBeLessThanOrEqual(NESTED_PARAMETER_BUDGET);
      expect(outputs, nested.node.id).toBeLessThanOrEqual(NESTED_PARAMETER_BUDGET);
    }
  });
});
