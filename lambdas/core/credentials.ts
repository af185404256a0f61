// The AWS credentials of a function: Lambda hands every function its role's credentials in the environment
// (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), and the local twin sets the same variables.
//
// The SDK's default chain (@aws-sdk/credential-provider-node) looks there first, then in SSO caches, ini files,
// credential processes, web identity tokens and container and instance metadata, and brings the STS, SSO and
// sign-in clients to do so: about 130 KB of every minified bundle, of code a Lambda function never runs. The function
// bundles therefore resolve that module to this one (lib/constructs/function-factory.ts); tests, the twin and scripts
// run unbundled and keep the SDK's chain, whose first link is this same lookup.
import { fromEnv } from '@aws-sdk/credential-provider-env';

/** Stands in for @aws-sdk/credential-provider-node's export of the same name in the function bundles. */
export const defaultProvider = (init?: Parameters<typeof fromEnv>[0]) => fromEnv(init);
