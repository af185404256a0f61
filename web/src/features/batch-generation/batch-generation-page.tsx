import { BATCH_MESSAGES, BATCH_PACKSHOT_TIER, BATCH_PHOTO_TIER, type CameraAngle } from '@contracts/batch';
import { BATCH_PACKSHOT_SHOT } from '@contracts/catalog';
import { DEFAULT_IMAGE_ASPECT_RATIO } from '@contracts/image-ratios';
import { plural } from '@contracts/plural';
import { Plus } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { useBuyCreditsAction } from '@/lib/buy-credits';
import { formatCredits } from '@/lib/format';
import { useProfile } from '@/lib/profile';
import { useOnModelPhotoCosts, useTierCost } from '@/features/prices';
import { BatchParameters, type BatchSettings } from './batch-parameters';
import { BatchSummary } from './batch-summary';
import { RunningBatch } from './running-batch';
import { useBatchDraft } from './use-batch-draft';
import { useBatchRun } from './use-batch-run';

/**
 * Batch Generation (/studio/generate/batch-generation): selection and parameters, the add button, the batch summary,
 * and the batch the screen follows. An entry's image is a library item or one of the seller's finished images; a
 * result's "Add to batch" (`?source=generation:<id>`) opens the screen with it chosen.
 */
export default function BatchGenerationPage() {
  const profile = useProfile();
  const buyCredits = useBuyCreditsAction();
  const composer = useBatchDraft();
  const run = useBatchRun();
  const [settings, setSettings] = useState<BatchSettings>({ imageSize: '2k', aspectRatio: DEFAULT_IMAGE_ASPECT_RATIO });
  const hintId = useId();

  const { draft, photoCount, entry } = composer;
  // Per photo: a saved model with a portrait may cost more (its own pricing tier), on every photo of its entry.
  // A packshot is charged its own tier, whatever the entry's model.
  const photoCost = useOnModelPhotoCosts(BATCH_PHOTO_TIER);
  const packshotCost = useTierCost()(BATCH_PACKSHOT_TIER);
  const costOf = (angles: CameraAngle[], modelId: string | undefined) => {
    const perAngle = photoCost(modelId);
    if (perAngle === undefined || packshotCost === undefined) return undefined;
    return angles.reduce((sum, angle) => sum + (angle === BATCH_PACKSHOT_SHOT ? packshotCost : perAngle), 0);
  };
  const entryCost = costOf(entry.angles, entry.modelId);
  const entryCosts = draft.map((item) => costOf(item.cameraAngles, item.modelId));
  const totalCredits = entryCosts.some((cost) => cost === undefined) ? undefined : entryCosts.reduce<number>((sum, cost) => sum + cost!, 0);
  const credits = profile.data?.current_credits;

  const onSubmit = async () => {
    if (draft.length === 0) return void toast.error('Error', { description: BATCH_MESSAGES.empty });
    if (totalCredits === undefined || credits === undefined) return void toast.error('Error', { description: 'Failed to load pricing' });
    if (credits < totalCredits) return void toast.error('Insufficient Credits', { description: BATCH_MESSAGES.notEnoughCredits(totalCredits, credits), action: buyCredits });
    const started = await run.start({
      batchItems: draft.map(({ clothingItemId, generationId, productType, prompt, modelId, cameraAngles, marketplace, backdrop }) => ({
        clothingItemId,
        generationId,
        productType: productType ?? 'clothing',
        prompt,
        ...(modelId ? { modelId } : {}),
        cameraAngles,
        ...(marketplace ? { marketplace } : {}),
        backdrop,
      })),
      imageSize: settings.imageSize,
      aspectRatio: settings.aspectRatio,
    });
    // After submit the draft is cleared (it was charged) and the balance shows what the debit left.
    if (started) composer.clear();
  };

  return (
    <div className="space-y-6">
      <PageHeader title="Batch Generation" description="Many photos in one go: every camera angle of every item, and its listing-ready packshot. 1 credit per camera angle." />
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1.3fr)_minmax(0,0.5fr)_minmax(0,1.2fr)]">
        <BatchParameters entry={entry} settings={settings} onSettingsChange={(changed) => setSettings((current) => ({ ...current, ...changed }))} />

        <Card className="self-start">
          <CardContent className="flex flex-col items-stretch gap-3 pt-5 text-center">
            <p className="text-sm text-slate-700">
              {plural(entry.angles.length, 'photo')}
              {entryCost !== undefined && ` · ${formatCredits(entryCost)}`}
            </p>
            <Button onClick={composer.add} aria-describedby={hintId}>
              <Plus className="h-4 w-4" aria-hidden="true" /> Add to Batch
            </Button>
            <p id={hintId} className="text-xs text-slate-600">
              Needs a clothing item or a past result, and at least one camera angle.
            </p>
          </CardContent>
        </Card>

        <BatchSummary
          draft={draft}
          pictureOf={composer.pictureOf}
          photoCount={photoCount}
          totalCredits={totalCredits}
          credits={credits}
          sending={run.sending}
          onProductTypeChange={composer.setEntryProductType}
          onRemove={composer.remove}
          onClear={composer.clear}
          onSubmit={() => void onSubmit()}
        />
      </div>

      {run.activeId && (
        <RunningBatch
          batch={run.active.data}
          startedHere={run.startedHere}
          loading={run.active.isPending}
          retrying={run.sending}
          onRetryFailed={(batch) => void run.retryFailed(batch)}
          onDismiss={run.dismiss}
        />
      )}
    </div>
  );
}
