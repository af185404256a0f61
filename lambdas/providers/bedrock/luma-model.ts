// The Luma Ray2 model id on Amazon Bedrock ("Luma AI models - Amazon Bedrock",
// https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-luma.html) and where it runs, in a module of
// its own so that the CDK app can grant exactly this model and check the stage's region without loading the
// adapter's image code.
export const LUMA_RAY2_MODEL_ID = 'luma.ray-v2:0';

/**
 * The regions Bedrock offers Luma Ray2 in, on demand ("Model support by AWS Region in Amazon Bedrock" and the Ray2
 * model card, https://docs.aws.amazon.com/bedrock/latest/userguide/model-card-luma-ai-ray2.html). StartAsyncInvoke
 * writes the clip to an S3 bucket that must be in the same region as the call, so the results bucket (the stack's
 * region) must be here too.
 */
export const LUMA_RAY2_REGIONS = ['us-west-2'] as const;

/** Ray2 is a third-party model sold through AWS Marketplace (its model card's "Marketplace product ID"). */
export const LUMA_RAY2_MARKETPLACE_PRODUCT_ID = 'prod-bi33bxqeqavl6';
