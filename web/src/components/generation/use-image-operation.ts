// The flow edit and upscale share: the chosen image (uploaded first when it is a file), the spending request, and the
// generation followed until it ends.
import { GENERATION_MESSAGES, type editAiImageRoute, type upscaleAiImageRoute } from '@contracts/generations';
import type { generatePackshotRoute } from '@contracts/packshots';
import { useEffect, useState } from 'react';
import type * as z from 'zod';
import { toast } from 'sonner';
import { uploadGenerationImage, useFollowedGeneration, useGeneration, useStartGeneration } from '@/lib/generations';
import { isInsufficientCredits, useBuyCreditsAction } from '@/lib/buy-credits';
import { useChosenSource } from '@/lib/next-step';
import { useProfile } from '@/lib/profile';
import { ApiError } from '@/lib/api';
import type { PendingStep } from './generation-preview';
import type { ImageChoice } from './image-source-picker';

/** The routes that change an image the caller chose: each body names it as `imageUrl`. */
type ImageOperationRoute = typeof editAiImageRoute | typeof upscaleAiImageRoute | typeof generatePackshotRoute;

export function useImageOperation<R extends ImageOperationRoute>(route: R, failureTitle: string) {
  const profile = useProfile();
  const start = useStartGeneration(route);
  const [choice, setChoice] = useState<ImageChoice>();
  const [pending, setPending] = useState<PendingStep>();
  const [generationId, setGenerationId] = useState<string>();
  /** The last refusal of the request itself (e.g. an edit the engine does not understand), for the screen to show by its field. */
  const [refusal, setRefusal] = useState<{ code: string; message: string }>();
  const followed = useFollowedGeneration(generationId, failureTitle);
  const credits = profile.data?.current_credits;
  const buyCredits = useBuyCreditsAction();

  // Opened from another result's "Edit" or "Upscale": that image is chosen as soon as it is read.
  const handedOver = useChosenSource();
  const handedOverGeneration = useGeneration(handedOver?.kind === 'generation' ? handedOver.id : undefined).data;
  useEffect(() => {
    if (handedOverGeneration?.status === 'complete' && handedOverGeneration.result_content_type?.startsWith('image/')) {
      setChoice((current) => current ?? { kind: 'result', generation: handedOverGeneration });
    }
  }, [handedOverGeneration]);

  /**
   * Checks the image and the credits (`cost`, with `creditsMessage`; the server checks alone while either is being
   * read), uploads a picked file, then sends `fields` with the image as `imageUrl` (the uploaded key or the result's
   * generation id).
   */
  async function run(fields: Omit<z.input<R['body']>, 'imageUrl'>, cost: number | undefined, creditsMessage: string): Promise<void> {
    if (!choice) return void toast.error(GENERATION_MESSAGES.chooseImage);
    setRefusal(undefined);
    if (credits !== undefined && cost !== undefined && credits < cost) return void toast.error(creditsMessage, { action: buyCredits });
    try {
      let imageUrl: string;
      if (choice.kind === 'file') {
        setPending({ label: 'Uploading…', fraction: 0 });
        imageUrl = await uploadGenerationImage(choice.file, (fraction) => setPending({ label: 'Uploading…', fraction }));
      } else {
        // A result by its id, a library item by its image's key (each route takes both as `imageUrl`).
        imageUrl = choice.kind === 'result' ? choice.generation.id : choice.item.image_url;
      }
      setPending({ label: 'Starting…' });
      const started = await start.mutateAsync({ imageUrl, ...fields } as z.input<R['body']>);
      setGenerationId(started.generationId);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && error.code) setRefusal({ code: error.code, message: error.message });
      toast.error(failureTitle, {
        description: error instanceof Error ? error.message : 'Please try again.',
        action: isInsufficientCredits(error) ? buyCredits : undefined,
      });
    } finally {
      setPending(undefined);
    }
  }

  const choose = (next: ImageChoice | undefined) => {
    setChoice(next);
    setGenerationId(undefined);
  };

  return {
    choice,
    choose,
    credits,
    pending,
    generation: followed.data,
    working: pending !== undefined || followed.data?.status === 'processing',
    refusal,
    clearRefusal: () => setRefusal(undefined),
    run,
  };
}
