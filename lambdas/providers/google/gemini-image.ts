// OnModelImagePort and EditPort on Gemini image, through @google/genai's `models.generateContent`.
// Request and answer ("Image generation with Gemini", https://ai.google.dev/gemini-api/docs/image-generation;
// REST: POST https://generativelanguage.googleapis.com/v1beta/models/{model}:generateContent, header x-goog-api-key,
// https://ai.google.dev/api/generate-content):
//   { contents: [{ role: "user", parts: [{ text }, { inlineData: { mimeType, data: <base64> } }, ...] }],
//     generationConfig: { responseModalities: ["IMAGE"], imageConfig: { aspectRatio: "9:16", imageSize: "1K" } } }
//   → { candidates: [{ content: { parts: [{ inlineData: { mimeType: "image/png", data } }] }, finishReason: "STOP" }],
//       promptFeedback?: { blockReason } }
// The SDK call: ai.models.generateContent({ model, contents, config: { responseModalities, imageConfig } }); the
// SDK moves `config` into `generationConfig` on the wire.
//
// The answer's parts may include the model's thoughts (Part.thought: true; Gemini 3 image models may show interim
// "thought images" before the final one, "Image generation with Gemini", Thinking process): only a part that is not a
// thought is the image delivered. imageConfig.imageSize is sent only to the models that take it (models.ts).
// Time and money: one image call must end inside the Process task's timeout (300 s, lambdas/workflows.ts) with room
// for the enrichment, the exact-size step and the store, so it runs under one deadline (IMAGE_CALL_BUDGET_MS). The
// call bills an image, so the SDK's retries are off (client.ts) and it is sent again only when Google answered 429 or
// the connection was never made (retryGoogle); a call that timed out or answered 5xx is never sent twice within this
// task attempt (it is reported busy: the workflow's retry is the next attempt). A key without paid access is an
// account problem, not "busy" (errors.ts).
// Enrichment (promptEnhance) runs on a current text model (a 3.x Flash-Lite, GOOGLE_DEFAULTS.textModel) with thinking
// off (thinkingConfig.thinkingBudget 0: "0 is DISABLED", @google/genai ThinkingConfig) and no `temperature` (the
// Gemini 3 guidance keeps it at its default; the changelog of 2026-07-21 deprecates setting it), so the 200 output
// tokens go to the answer; its text is used only when the candidate finished with finishReason STOP (MAX_TOKENS is a
// cut sentence). When the text model refuses, fails or is late, the description is used as written and the photo says
// so (notRendered, shown on the History row): PROVIDER_MESSAGES.notEnrichedRefused / notEnrichedUnavailable.
//
// Sizes: Gemini is asked for the smallest size whose long side covers the order, at most the configured largest
// (GOOGLE_IMAGE_MAX_SIZE); the answer is brought to the exact size by a Lanczos resample when it covers the order,
// otherwise by the upscale port, and `model` (ai_model) then names both steps.
import sharp from 'sharp';
import type { EditPort, ImageInput, ImageOutput, OnModelImagePort, OnModelImageRequest, Size, UpscalePort } from '../ports.js';
import { aspectRatioOf } from '../ports.js';
import { toExactOutput } from '../bedrock/image-sizing.js';
import { PROVIDER_MESSAGES } from '../../contracts/catalog.js';
import { retryGoogle, type GoogleClient, type ResendPolicy } from './client.js';
import { callGoogle, failed, refusalOf } from './errors.js';
import { GEMINI_ASPECT_RATIOS, GEMINI_IMAGE_SIZES, imageModelSizes, type GeminiImageSize } from './models.js';
import { editPrompt, enrichmentPrompt, onModelPrompt } from './prompts.js';

export interface GeminiImageOptions {
  client: GoogleClient;
  model: string;
  /** The largest size asked for; larger orders go through `upscale`. */
  maxSize: GeminiImageSize;
  /** The text model that enriches descriptions (promptEnhance). */
  textModel: string;
  /** The deployment's upscale port: brings a smaller answer to the exact size. */
  upscale: UpscalePort;
  /** Milliseconds one image call may take with its resends (default IMAGE_CALL_BUDGET_MS). */
  imageCallBudgetMs?: number;
  /** How a 429 or an unmade connection is sent again (default: 3 calls in all, from 2 s). */
  resend?: Omit<ResendPolicy, 'deadline'>;
}

/**
 * One image call with its retries: the Process task has 300 s; this leaves 60 s for the enrichment (ENRICHMENT_BUDGET_MS),
 * reading the inputs, the exact-size step and the store.
 */
export const IMAGE_CALL_BUDGET_MS = 220_000;
/** The enrichment's own deadline: a slow text model only costs the enrichment. */
export const ENRICHMENT_BUDGET_MS = 20_000;

/** Inputs are sent at most this large (long side): enough for the model, well under the 20 MB request limit. */
const MAX_INPUT_SIDE = 2048;

type Part = { text: string } | { inlineData: { mimeType: string; data: string } };

/** The image as an inline part: upright, at most 2048 px a side, PNG when it had to change. */
export async function inlineImage(image: ImageInput): Promise<Part> {
  const meta = await sharp(image.bytes).metadata();
  const fits = (meta.orientation ?? 1) === 1 && Math.max(meta.width ?? 0, meta.height ?? 0) <= MAX_INPUT_SIDE;
  if (fits) return { inlineData: { mimeType: image.mimeType, data: image.bytes.toString('base64') } };
  const png = await sharp(image.bytes)
    .rotate()
    .resize(MAX_INPUT_SIDE, MAX_INPUT_SIDE, { fit: 'inside', withoutEnlargement: true, kernel: sharp.kernel.lanczos3 })
    .png()
    .toBuffer();
  return { inlineData: { mimeType: 'image/png', data: png.toString('base64') } };
}

/** The aspect ratio Gemini takes that is nearest to `size`'s. */
export function geminiAspectRatio(size: Size): (typeof GEMINI_ASPECT_RATIOS)[number] {
  const exact = aspectRatioOf(size);
  const listed = GEMINI_ASPECT_RATIOS.find((ratio) => ratio === exact);
  if (listed) return listed;
  const wanted = Math.log(size.width / size.height);
  const distance = (ratio: string) => {
    const [w, h] = ratio.split(':').map(Number) as [number, number];
    return Math.abs(Math.log(w / h) - wanted);
  };
  return GEMINI_ASPECT_RATIOS.reduce((best, ratio) => (distance(ratio) < distance(best) ? ratio : best));
}

/** The imageSize to ask for: the smallest the model makes whose long side covers `size`, at most `maxSize`. */
export function geminiImageSize(modelId: string, maxSize: GeminiImageSize, size: Size): GeminiImageSize {
  const limit = GEMINI_IMAGE_SIZES.findIndex((candidate) => candidate.name === maxSize);
  const allowed = GEMINI_IMAGE_SIZES.filter((candidate, index) => index <= limit && imageModelSizes(modelId).includes(candidate.name));
  if (allowed.length === 0) return '1K';
  const longSide = Math.max(size.width, size.height);
  return (allowed.find((candidate) => candidate.longSide >= longSide) ?? allowed[allowed.length - 1]!).name;
}

interface GeneratedImage {
  bytes: Buffer;
  width: number;
  height: number;
}

export function createGeminiImage(options: GeminiImageOptions): { onModelImage: OnModelImagePort; edit: EditPort } {
  const modelName = `google:${options.model}`;

  async function generateImage(parts: Part[], aspectRatio: string, imageSize: GeminiImageSize, seed?: number): Promise<GeneratedImage> {
    const ai = await callGoogle(() => options.client());
    const budgetMs = options.imageCallBudgetMs ?? IMAGE_CALL_BUDGET_MS;
    const deadline = Date.now() + budgetMs;
    const response = await callGoogle(() =>
      retryGoogle(
        () =>
          ai.models.generateContent({
            model: options.model,
            contents: [{ role: 'user', parts }],
            config: {
              responseModalities: ['IMAGE'],
              imageConfig: { aspectRatio, imageSize },
              ...(seed === undefined ? {} : { seed }),
              abortSignal: AbortSignal.timeout(Math.max(1, deadline - Date.now())),
            },
          }),
        { ...options.resend, deadline },
      ),
    );
    const refusal = refusalOf(response);
    if (refusal) throw refusal;
    const image = response.candidates?.[0]?.content?.parts?.find((part) => !part.thought && part.inlineData?.data)?.inlineData?.data;
    if (!image) throw failed();
    const bytes = Buffer.from(image, 'base64');
    const meta = await sharp(bytes).metadata().catch(() => null);
    if (!meta?.width || !meta.height) throw failed();
    return { bytes, width: meta.width, height: meta.height };
  }

  /** The answer at exactly `size`: resampled when it covers it, otherwise through the upscale port. */
  async function exactly(generated: GeneratedImage, size: Size, imageSize: GeminiImageSize): Promise<ImageOutput> {
    if (generated.width >= size.width && generated.height >= size.height) {
      return toExactOutput(generated.bytes, size, 'cover', modelName);
    }
    // The largest the model made, cropped to the order's ratio, then enlarged by the deployment's upscaler.
    const scale = Math.min(generated.width / size.width, generated.height / size.height);
    const cropped = await toExactOutput(generated.bytes, { width: Math.round(size.width * scale), height: Math.round(size.height * scale) }, 'cover', modelName);
    const upscaled = await options.upscale.upscale({ image: { bytes: cropped.bytes, mimeType: 'image/png' }, size });
    return { ...upscaled, model: `${modelName} ${imageSize} ${generated.width}×${generated.height} + upscale ${upscaled.model}` };
  }

  /**
   * The model description, enriched by the text model when promptEnhance is on; its plain words, with a note saying
   * why, when the text model refuses, fails or is late.
   */
  async function describe(request: OnModelImageRequest): Promise<{ text: string; note?: string }> {
    const plain = request.model.description;
    if (!request.promptEnhance) return { text: plain };
    try {
      const ai = await options.client();
      const response = await ai.models.generateContent({
        model: options.textModel,
        contents: enrichmentPrompt(plain, request.productType),
        config: { maxOutputTokens: 200, thinkingConfig: { thinkingBudget: 0 }, abortSignal: AbortSignal.timeout(ENRICHMENT_BUDGET_MS) },
      });
      if (refusalOf(response)) return { text: plain, note: PROVIDER_MESSAGES.notEnrichedRefused };
      const candidate = response.candidates?.[0];
      if (String(candidate?.finishReason) !== 'STOP') return { text: plain, note: PROVIDER_MESSAGES.notEnrichedUnavailable };
      const text = (candidate?.content?.parts ?? [])
        .filter((part) => !part.thought && typeof part.text === 'string')
        .map((part) => part.text)
        .join('')
        .trim()
        .replace(/^"|"$/g, '');
      return text && text.length > plain.length ? { text } : { text: plain, note: PROVIDER_MESSAGES.notEnrichedUnavailable };
    } catch {
      // A busy, failing or shut-down text model only costs the enrichment, and the photo says so.
      return { text: plain, note: PROVIDER_MESSAGES.notEnrichedUnavailable };
    }
  }

  return {
    onModelImage: {
      async generate(request) {
        const imageSize = geminiImageSize(options.model, options.maxSize, request.size);
        const description = await describe(request);
        const parts: Part[] = [{ text: onModelPrompt(request, description.text) }, await inlineImage(request.product)];
        if (request.model.referenceImage) parts.push(await inlineImage(request.model.referenceImage));
        const generated = await generateImage(parts, geminiAspectRatio(request.size), imageSize, request.model.seed);
        const output = await exactly(generated, request.size, imageSize);
        return description.note ? { ...output, notRendered: [...(output.notRendered ?? []), description.note] } : output;
      },
    },
    edit: {
      async edit({ image, instruction }) {
        const meta = await sharp(image.bytes).rotate().metadata();
        const rotated = (meta.orientation ?? 1) >= 5;
        const size = { width: (rotated ? meta.height : meta.width) ?? 0, height: (rotated ? meta.width : meta.height) ?? 0 };
        if (!size.width || !size.height) throw failed();
        const imageSize = geminiImageSize(options.model, options.maxSize, size);
        const generated = await generateImage([await inlineImage(image), { text: editPrompt(instruction) }], geminiAspectRatio(size), imageSize);
        return exactly(generated, size, imageSize);
      },
    },
  };
}

