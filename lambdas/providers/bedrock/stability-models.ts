// Stability AI Image Services on Amazon Bedrock: model ids and documented input limits.
// Source: "Stability AI Image Services - Amazon Bedrock",
// https://docs.aws.amazon.com/bedrock/latest/userguide/stable-image-services.html (sections Upscale > Fast Upscale,
// Edit > Search and Replace / Search and Recolor / Remove Background / Inpaint). The documented examples call the
// models through the US cross-region inference profile (`us.` prefix); the model cards list that profile only
// (us-east-1, us-east-2, us-west-2), e.g. "Stable Image Fast Upscale" model card,
// https://docs.aws.amazon.com/bedrock/latest/userguide/model-card-stability-ai-stable-image-fast-upscale.html.

export interface StabilityModelIds {
  fastUpscale: string;
  searchReplace: string;
  searchRecolor: string;
  removeBackground: string;
}

/** Where the US cross-region inference profile (`us.` ids) is called from and routes requests to. */
export const STABILITY_PROFILE_REGIONS = ['us-east-1', 'us-east-2', 'us-west-2'] as const;

export const DEFAULT_STABILITY_MODEL_IDS: StabilityModelIds = {
  fastUpscale: 'us.stability.stable-fast-upscale-v1:0',
  searchReplace: 'us.stability.stable-image-search-replace-v1:0',
  searchRecolor: 'us.stability.stable-image-search-recolor-v1:0',
  removeBackground: 'us.stability.stable-image-remove-background-v1:0',
};

/** Fast Upscale: "Width must be between 32 and 1,536 pixels. Height must be between 32 and 1,536 pixels. Total
 * pixel count must be between 1,024 and 1,048,576 pixels." It "enhances image resolution by 4 times". */
export const FAST_UPSCALE_LIMITS = { minSide: 32, maxSide: 1536, minPixels: 1024, maxPixels: 1_048_576, factor: 4 } as const;

/** Edit services (search and replace, search and recolor, remove background, inpaint): "Every side of the image
 * must be at least 64 pixels. The total pixel count cannot exceed 9,437,184 pixels. Image aspect ratio must be
 * between 1:2.5 and 2.5:1." */
export const EDIT_LIMITS = { minSide: 64, maxPixels: 9_437_184, maxAspect: 2.5 } as const;

/** InvokeModel takes a request body of at most 25 MB ("Quotas for Amazon Bedrock"); the image's base64 text gets all
 * of it but a margin for the prompts and the JSON around them. */
export const EDIT_MAX_IMAGE_BASE64_CHARS = 24_000_000;

/** Every request asks for PNG (`output_format` enum: jpeg, png, webp; default png), the ports' output type. */
export const STABILITY_OUTPUT_FORMAT = 'png';
