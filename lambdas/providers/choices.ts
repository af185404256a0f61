// The adapters each AI port can be configured with (docs/providers.md: Configuring AI providers), by environment variable: read by the registry at run
// time and checked by the CDK config at synth time, so a deployment cannot name an adapter the functions reject.
export const PROVIDER_CHOICES = {
  PROVIDER_IMAGE: ['local', 'fashn', 'google'],
  PROVIDER_EDIT: ['local', 'bedrock', 'google'],
  PROVIDER_UPSCALE: ['local', 'bedrock'],
  PROVIDER_VIDEO: ['local', 'bedrock', 'google', 'fashn'],
} as const;
