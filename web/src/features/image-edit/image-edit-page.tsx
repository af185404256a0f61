import { GENERATION_MESSAGES, PROMPT_MAX_LENGTH, editAiImageRoute } from '@contracts/generations';
import { Info, Wand2 } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { CostFooter } from '@/components/generation/cost-footer';
import { GenerationPreview } from '@/components/generation/generation-preview';
import { ImageSourcePicker, useChoicePreview } from '@/components/generation/image-source-picker';
import { useImageOperation } from '@/components/generation/use-image-operation';
import { PageHeader } from '@/components/page-header';
import { Card, CardContent } from '@/components/ui/card';
import { Label, Textarea } from '@/components/ui/field';
import { formatCredits } from '@/lib/format';
import { useEditInstructions } from '@/lib/generations';
import { useTierCost } from '@/features/prices';

/** Edit (/studio/generate/edit): an uploaded image or a past result changed by instructions; form left, result right. */
export default function ImageEditPage() {
  const operation = useImageOperation(editAiImageRoute, 'Edit Failed');
  const instructions = useEditInstructions();
  const [editPrompt, setEditPrompt] = useState('');
  const promptId = useId();
  const helpId = useId();
  const refusalId = useId();
  // An instruction the engine refused stays beside the field, with what it understands, until the text changes.
  const refusal = operation.refusal?.code === 'UNSUPPORTED_EDIT' ? operation.refusal : undefined;
  const understood = instructions.data?.engine === 'local-engine' ? instructions.data.instructions : [];
  const original = useChoicePreview(operation.choice);
  const cost = useTierCost()('image-edit');

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (operation.choice && !editPrompt.trim()) return void toast.error(GENERATION_MESSAGES.enterEditInstructions);
    void operation.run({ editPrompt: editPrompt.trim() }, cost, `You need at least ${formatCredits(cost)} to edit an image`);
  };

  return (
    <div>
      <PageHeader title="Edit" description={`Change an image by describing the edit. ${formatCredits(cost)} per edit.`} />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card>
          <CardContent className="pt-5">
            <form onSubmit={onSubmit} className="space-y-5" noValidate>
              <ImageSourcePicker value={operation.choice} onChange={operation.choose} />
              <div>
                <Label htmlFor={promptId}>Editing instructions</Label>
                <Textarea
                  id={promptId}
                  value={editPrompt}
                  onChange={(event) => {
                    setEditPrompt(event.target.value);
                    operation.clearRefusal();
                  }}
                  placeholder="e.g. background white and brighten by 10%"
                  maxLength={PROMPT_MAX_LENGTH}
                  aria-describedby={refusal ? `${refusalId} ${helpId}` : helpId}
                  aria-invalid={refusal ? true : undefined}
                  required
                />
                {refusal && (
                  <div id={refusalId} role="alert" data-testid="edit-refusal" className="mt-2 rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-900">
                    <p className="font-medium">{refusal.message}</p>
                    {understood.length > 0 && (
                      <p className="mt-1">
                        Try one of these: {understood.map((entry) => entry.instruction).join('; ')}.
                      </p>
                    )}
                  </div>
                )}
              </div>
              <div id={helpId} className="scroll-mt-20 rounded-lg border border-slate-200 bg-slate-50 p-3 text-sm text-slate-700">
                <span id="edit-instructions" className="sr-only">
                  Edit instructions
                </span>
                <p className="flex items-center gap-2 font-medium text-slate-900">
                  <Info className="h-4 w-4 text-brand-600" aria-hidden="true" />
                  {instructions.data?.engine === 'local-engine' ? 'Instructions the local studio engine understands' : 'How to describe an edit'}
                </p>
                {instructions.data?.engine === 'local-engine' ? (
                  <ul className="mt-2 space-y-1" aria-label="Understood instructions">
                    {instructions.data.instructions.map((entry) => (
                      <li key={entry.instruction}>
                        <code className="rounded bg-white px-1 text-slate-900">{entry.instruction}</code> — {entry.effect}
                      </li>
                    ))}
                    <li className="pt-1 text-slate-600">Combine several with “and” or commas.</li>
                  </ul>
                ) : (
                  <p className="mt-1">{instructions.data?.help ?? 'Describe the change in a sentence.'}</p>
                )}
              </div>
              <CostFooter cost={cost} balance={operation.credits} label="Apply Edit" icon={Wand2} busy={operation.working} />
            </form>
          </CardContent>
        </Card>
        <GenerationPreview
          title="Result"
          generation={operation.generation}
          pending={operation.pending}
          original={original}
          empty={<p>Upload an image or pick one of your results; the edited image appears here.</p>}
        />
      </div>
    </div>
  );
}
