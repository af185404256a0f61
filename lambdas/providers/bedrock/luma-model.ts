// The Luma Ray2 model id on Amazon Bedrock ("Luma AI models - Amazon Bedrock",
// https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-luma.html), in a module of its own so that
// the CDK app can grant exactly this model without loading the adapter's image code.
export const LUMA_RAY2_MODEL_ID = 'luma.ray-v2:0';
