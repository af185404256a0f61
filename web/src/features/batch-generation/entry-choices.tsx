// The choices of a batch entry drawn as buttons: its shots (camera angles and the packshot, several, in the
// catalogue's order), the packshot's marketplace, and its backdrop colour (a preset, any picked colour, or a typed
// #RRGGBB).
import { BACKDROP_PRESETS, backdropHex, type CameraAngle } from '@contracts/batch';
import { BATCH_SHOTS } from '@contracts/catalog';
import { MARKETPLACES, MARKETPLACE_NAMES, PACKSHOT_PRESETS, type Marketplace } from '@contracts/marketplace';
import { useId } from 'react';
import { Input, Label, Select } from '@/components/ui/field';
import { cn } from '@/lib/cn';

export function CameraAngleChoice({ angles, onToggle }: { angles: CameraAngle[]; onToggle: (angle: CameraAngle) => void }) {
  return (
    <fieldset>
      <legend className="mb-1.5 block text-sm font-medium text-slate-800">Camera angles</legend>
      <div className="flex flex-wrap gap-2" role="group" aria-label="Camera angles">
        {BATCH_SHOTS.map((angle) => (
          <button
            key={angle}
            type="button"
            aria-pressed={angles.includes(angle)}
            onClick={() => onToggle(angle)}
            className={cn(
              'rounded-full border px-3 py-1.5 text-sm font-medium',
              angles.includes(angle) ? 'border-brand-600 bg-brand-600 text-white' : 'border-slate-300 bg-white text-slate-800 hover:border-slate-400',
            )}
          >
            {angle}
          </button>
        ))}
      </div>
    </fieldset>
  );
}

/** The marketplace preset of the entry's packshot: its size and format beside its name. */
export function PackshotMarketplaceChoice({ marketplace, onChange }: { marketplace: Marketplace; onChange: (marketplace: Marketplace) => void }) {
  const id = useId();
  return (
    <div>
      <Label htmlFor={id}>Packshot marketplace</Label>
      <Select id={id} value={marketplace} onChange={(event) => onChange(event.target.value as Marketplace)}>
        {MARKETPLACES.map((name) => (
          <option key={name} value={name}>
            {MARKETPLACE_NAMES[name]} · {PACKSHOT_PRESETS[name].width}×{PACKSHOT_PRESETS[name].height} {PACKSHOT_PRESETS[name].format.toUpperCase()}
          </option>
        ))}
      </Select>
    </div>
  );
}

export function BackdropChoice({ backdrop, onChange }: { backdrop: string; onChange: (backdrop: string) => void }) {
  const hexId = useId();
  return (
    <fieldset>
      <legend className="mb-1.5 block text-sm font-medium text-slate-800">Backdrop colour</legend>
      <div className="flex flex-wrap items-center gap-2" role="radiogroup" aria-label="Backdrop presets">
        {BACKDROP_PRESETS.map((preset) => (
          <button
            key={preset.name}
            type="button"
            role="radio"
            aria-checked={backdropHex(backdrop) === preset.hex}
            aria-label={preset.name}
            title={preset.name}
            onClick={() => onChange(preset.hex)}
            className={cn('h-8 w-8 rounded-full border-2', backdropHex(backdrop) === preset.hex ? 'border-brand-600 ring-2 ring-brand-200' : 'border-slate-300')}
            style={{ backgroundColor: preset.hex }}
          />
        ))}
        <input
          type="color"
          aria-label="Pick any colour"
          value={backdropHex(backdrop) ?? '#FFFFFF'}
          onChange={(event) => onChange(event.target.value.toUpperCase())}
          className="h-8 w-10 cursor-pointer rounded border border-slate-300 bg-white"
        />
        <Label htmlFor={hexId} className="sr-only">
          Backdrop colour (#RRGGBB)
        </Label>
        <Input id={hexId} value={backdrop} onChange={(event) => onChange(event.target.value)} className="w-28 font-mono" placeholder="#RRGGBB" />
      </div>
    </fieldset>
  );
}
