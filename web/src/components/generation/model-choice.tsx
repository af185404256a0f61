// "Model: [saved model ▾] or describe one": Image Generation and Batch take a saved model (its picture and words shown,
// the same person on every photo) or the words of the description field, which the screen passes as children.
import type { SavedModel } from '@contracts/models';
import { UserRound } from 'lucide-react';
import { useId, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Label, Select } from '@/components/ui/field';
import { paths } from '@/lib/paths';
import { useSavedModels } from '@/lib/saved-models';

interface ModelChoiceProps {
  /** The chosen saved model's id; undefined: the model is described in words. */
  value: string | undefined;
  onChange: (modelId: string | undefined) => void;
  /** The description field, shown while no saved model is chosen. */
  children: ReactNode;
}

export function ModelChoice({ value, onChange, children }: ModelChoiceProps) {
  const models = useSavedModels();
  const id = useId();
  const chosen = models.data?.find((model) => model.id === value);
  return (
    <div className="space-y-3">
      <div>
        <div className="flex items-baseline justify-between gap-2">
          <Label htmlFor={id}>Model</Label>
          <Link to={paths.models} className="text-xs font-medium text-brand-700 hover:underline">
            Manage models
          </Link>
        </div>
        <Select id={id} value={value ?? ''} onChange={(event) => onChange(event.target.value || undefined)}>
          <option value="">Describe one</option>
          {models.data?.map((model) => (
            <option key={model.id} value={model.id}>
              {model.name}
            </option>
          ))}
        </Select>
      </div>
      {chosen ? <ChosenModel model={chosen} /> : children}
    </div>
  );
}

/** A saved model at a glance: its picture and its description. */
export function ChosenModel({ model }: { model: SavedModel }) {
  return (
    <figure className="flex items-start gap-3 rounded-lg border border-slate-200 p-2" data-testid="chosen-model">
      <ModelPicture model={model} className="h-16 w-12 rounded-md" />
      <figcaption className="min-w-0 text-sm">
        <span className="block font-medium text-slate-900">{model.name}</span>
        <span className="line-clamp-3 text-slate-700">{model.description}</span>
      </figcaption>
    </figure>
  );
}

/** The portrait, or the first picture made with the model, or a placeholder. */
export function ModelPicture({ model, className }: { model: Pick<SavedModel, 'name'> & { preview_url?: string | null; portrait_url?: string | null }; className?: string }) {
  const url = model.preview_url ?? model.portrait_url;
  if (!url) {
    return (
      <span className={`flex shrink-0 items-center justify-center bg-slate-100 text-slate-500 ${className ?? ''}`}>
        <UserRound className="h-1/2 w-1/2" aria-hidden="true" />
      </span>
    );
  }
  return <img src={url} alt={`${model.name}`} loading="lazy" className={`shrink-0 bg-slate-100 object-cover ${className ?? ''}`} />;
}
