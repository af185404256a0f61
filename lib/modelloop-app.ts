// The CDK app: the stack for the configured stage, checked by cdk-nag's AWS Solutions rules on every synth.
import { App, Validations, type AppProps } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { readConfig } from './config.js';
import { ModelLoopStack } from './modelloop-stack.js';

export interface ModelLoopAppOptions {
  /** Run cdk-nag as a validation plugin (an unacknowledged finding fails synthesis). Only tests of the template alone turn it off. */
  nag?: boolean;
}

export function createModelLoopApp(props?: AppProps, { nag = true }: ModelLoopAppOptions = {}): { app: App; stack: ModelLoopStack } {
  const app = new App(props);
  const config = readConfig(app.node);
  const account = process.env.CDK_DEFAULT_ACCOUNT;
  const region = process.env.CDK_DEFAULT_REGION;
  const stack = new ModelLoopStack(app, `ModelLoop-${config.stage}`, {
    config,
    env: account || region ? { account, region } : undefined,
    description: `ModelLoop (${config.stage}): product photos to on-model images and looping videos`,
  });
  if (nag) Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  return { app, stack };
}
