// "Refine cutout" (issue #48): a finished packshot's mask over its photo, with Erase and Restore brushes, a size slider
// and undo, by mouse, pen or finger. Applying sends the mask as a PNG (PUT /generations/{id}/cutout): the same
// packshot is rendered again from it, at no charge, and the mask is kept for every later packshot of the photo.
import type { Generation } from '@contracts/generations';
import { CUTOUT_RULES } from '@contracts/marketplace';
import { getPackshotCutoutRoute, refinePackshotCutoutRoute, type PackshotCutout } from '@contracts/packshots';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Brush, Eraser, Undo2 } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type PointerEvent } from 'react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Spinner } from '@/components/ui/spinner';
import { ApiError, callRoute } from '@/lib/api';
import { GENERATIONS_QUERY_ROOT } from '@/lib/generations';
import { cn } from '@/lib/cn';

/** The rules whose failure makes a cutout doubtful (lambdas/domain/marketplace/compliance.ts). */
const REVIEW_RULE_IDS = new Set(['one-product', ...CUTOUT_RULES.map((rule) => rule.id)]);
/** Undo keeps this many strokes. */
const UNDO_DEPTH = 30;
/** What the removed part of the photo is tinted with over the photo (RGBA). */
const REMOVED_TINT = [190, 24, 93, 150] as const;

/** Whether a generation is a packshot (its own, or a batch entry's) that can be refined. */
export function isRefinablePackshot(generation: Generation): boolean {
  return generation.status === 'complete' && (generation.operation === 'packshot' || (generation.operation === 'batch' && generation.params.cameraAngle === 'Packshot'));
}

/**
 * A doubtful cutout says so on the result: the report's cutout rules that failed (compliance.review), as a note that
 * points at the brush.
 */
export function CutoutReviewNote({ generation }: { generation: Generation }) {
  const report = generation.compliance;
  if (!report?.review) return null;
  const doubts = new Map<string, string>();
  for (const market of report.marketplaces) {
    for (const rule of market.rules) if (!rule.pass && REVIEW_RULE_IDS.has(rule.id)) doubts.set(rule.id, `${rule.label} (measured ${String(rule.measured)})`);
  }
  return (
    <div role="status" data-testid="cutout-review" className="w-full rounded-lg border border-amber-300 bg-amber-50 p-3 text-left text-sm text-amber-900">
      <p className="font-medium">Review this cutout before you list it</p>
      <ul className="ml-4 mt-1 list-disc">
        {[...doubts.values()].map((doubt) => (
          <li key={doubt}>{doubt}</li>
        ))}
      </ul>
      {isRefinablePackshot(generation) && <p className="mt-1">Refine cutout fixes it at no charge.</p>}
    </div>
  );
}

/** "Refine cutout" and its dialog, for a finished packshot. */
export function RefineCutout({ generation }: { generation: Generation }) {
  const [open, setOpen] = useState(false);
  if (!isRefinablePackshot(generation)) return null;
  return (
    <>
      <Button variant="outline" onClick={() => setOpen(true)}>
        <Brush className="h-4 w-4" aria-hidden="true" /> Refine cutout
      </Button>
      <Dialog open={open} onOpenChange={setOpen}>
        {open && (
          <DialogContent
            title="Refine cutout"
            description="Paint over what should go with Erase, and over what should stay with Restore. Applying renders this packshot again at no charge."
            className="max-h-[95vh] max-w-3xl overflow-y-auto"
          >
            <RefineCutoutEditor generation={generation} onDone={() => setOpen(false)} />
          </DialogContent>
        )}
      </Dialog>
    </>
  );
}

async function loadMask(cutout: PackshotCutout): Promise<Uint8Array> {
  const bitmap = await createImageBitmap(await (await fetch(cutout.maskUrl)).blob());
  const canvas = document.createElement('canvas');
  canvas.width = cutout.width;
  canvas.height = cutout.height;
  const context = canvas.getContext('2d')!;
  context.drawImage(bitmap, 0, 0, cutout.width, cutout.height);
  const { data } = context.getImageData(0, 0, cutout.width, cutout.height);
  const mask = new Uint8Array(cutout.width * cutout.height);
  for (let p = 0; p < mask.length; p++) mask[p] = data[p * 4]! >= 128 ? 255 : 0;
  return mask;
}

/** The mask as a PNG (white = product), base64. */
async function maskPng(mask: Uint8Array, width: number, height: number): Promise<string> {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d')!;
  const image = context.createImageData(width, height);
  for (let p = 0; p < mask.length; p++) {
    image.data.set([mask[p]!, mask[p]!, mask[p]!, 255], p * 4);
  }
  context.putImageData(image, 0, 0);
  const blob = await new Promise<Blob>((resolve, reject) => canvas.toBlob((made) => (made ? resolve(made) : reject(new Error('PNG'))), 'image/png'));
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function RefineCutoutEditor({ generation, onDone }: { generation: Generation; onDone: () => void }) {
  const cutout = useQuery({ queryKey: [GENERATIONS_QUERY_ROOT, 'cutout', generation.id], queryFn: () => callRoute(getPackshotCutoutRoute, { params: { id: generation.id } }), staleTime: 0 });
  const queryClient = useQueryClient();
  const canvas = useRef<HTMLCanvasElement>(null);
  const mask = useRef<Uint8Array | undefined>(undefined);
  const undo = useRef<Uint8Array[]>([]);
  const stroke = useRef<{ last: [number, number] } | undefined>(undefined);
  const [mode, setMode] = useState<'erase' | 'restore'>('erase');
  const [size, setSize] = useState(40);
  const [undoCount, setUndoCount] = useState(0);
  const [ready, setReady] = useState(false);
  const [applying, setApplying] = useState(false);
  const data = cutout.data;

  /** Tints the removed pixels of the rectangle (or all) over the photo. */
  const paint = useCallback((left = 0, top = 0, right = data?.width ?? 0, bottom = data?.height ?? 0) => {
    const context = canvas.current?.getContext('2d');
    if (!context || !data || !mask.current) return;
    const x0 = Math.max(0, Math.floor(left));
    const y0 = Math.max(0, Math.floor(top));
    const x1 = Math.min(data.width, Math.ceil(right));
    const y1 = Math.min(data.height, Math.ceil(bottom));
    if (x1 <= x0 || y1 <= y0) return;
    const image = context.createImageData(x1 - x0, y1 - y0);
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        if (mask.current[y * data.width + x]! >= 128) continue;
        image.data.set(REMOVED_TINT, ((y - y0) * (x1 - x0) + (x - x0)) * 4);
      }
    }
    context.putImageData(image, x0, y0);
  }, [data]);

  useEffect(() => {
    if (!data) return;
    let cancelled = false;
    void loadMask(data).then((loaded) => {
      if (cancelled) return;
      mask.current = loaded;
      setReady(true);
    });
    return () => {
      cancelled = true;
    };
  }, [data]);
  useEffect(() => {
    if (ready) paint();
  }, [ready, paint]);

  /** The mask pixel under a pointer. */
  const at = (event: PointerEvent<HTMLCanvasElement>): [number, number] => {
    const box = event.currentTarget.getBoundingClientRect();
    return [((event.clientX - box.left) / box.width) * data!.width, ((event.clientY - box.top) / box.height) * data!.height];
  };
  /** Paints a round brush of `size` mask pixels along the segment from `from` to `to`. */
  const brush = (from: [number, number], to: [number, number]) => {
    if (!mask.current || !data) return;
    const radius = size / 2;
    const value = mode === 'erase' ? 0 : 255;
    const steps = Math.max(1, Math.ceil(Math.hypot(to[0] - from[0], to[1] - from[1]) / Math.max(1, radius / 2)));
    for (let step = 0; step <= steps; step++) {
      const cx = from[0] + ((to[0] - from[0]) * step) / steps;
      const cy = from[1] + ((to[1] - from[1]) * step) / steps;
      for (let y = Math.max(0, Math.floor(cy - radius)); y <= Math.min(data.height - 1, Math.ceil(cy + radius)); y++) {
        for (let x = Math.max(0, Math.floor(cx - radius)); x <= Math.min(data.width - 1, Math.ceil(cx + radius)); x++) {
          if ((x - cx) ** 2 + (y - cy) ** 2 <= radius * radius) mask.current[y * data.width + x] = value;
        }
      }
    }
    paint(Math.min(from[0], to[0]) - radius - 1, Math.min(from[1], to[1]) - radius - 1, Math.max(from[0], to[0]) + radius + 2, Math.max(from[1], to[1]) + radius + 2);
  };
  const onPointerDown = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!mask.current) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    undo.current = [...undo.current.slice(-(UNDO_DEPTH - 1)), Uint8Array.from(mask.current)];
    setUndoCount(undo.current.length);
    const point = at(event);
    stroke.current = { last: point };
    brush(point, point);
  };
  const onPointerMove = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!stroke.current) return;
    const point = at(event);
    brush(stroke.current.last, point);
    stroke.current.last = point;
  };
  const onPointerUp = () => {
    stroke.current = undefined;
  };
  const onUndo = () => {
    const previous = undo.current.pop();
    if (!previous) return;
    mask.current = previous;
    setUndoCount(undo.current.length);
    paint();
  };
  const onApply = async () => {
    if (!mask.current || !data) return;
    setApplying(true);
    try {
      const refined = await callRoute(refinePackshotCutoutRoute, { params: { id: generation.id }, body: { mask: await maskPng(mask.current, data.width, data.height) } });
      queryClient.setQueriesData({ queryKey: [GENERATIONS_QUERY_ROOT] }, (old: unknown) => (old && typeof old === 'object' && 'id' in old && old.id === refined.id ? refined : old));
      await queryClient.invalidateQueries({ queryKey: [GENERATIONS_QUERY_ROOT] });
      toast.success('Packshot rendered again from your cutout. No credits were used.');
      onDone();
    } catch (error) {
      toast.error('Refine cutout failed', { description: error instanceof ApiError ? error.message : 'Please try again.' });
    } finally {
      setApplying(false);
    }
  };

  if (cutout.isError) {
    return <p role="alert" className="mt-4 text-sm text-red-700">{cutout.error instanceof ApiError ? cutout.error.message : 'The cutout could not be loaded.'}</p>;
  }
  if (!data) return <Spinner className="mx-auto mt-6 h-6 w-6 text-brand-600" label="Loading the cutout" />;
  return (
    <div className="mt-4 space-y-3">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <div role="radiogroup" aria-label="Brush" className="inline-flex overflow-hidden rounded-lg border border-slate-300">
          {(['erase', 'restore'] as const).map((choice) => (
            <button
              key={choice}
              type="button"
              role="radio"
              aria-checked={mode === choice}
              onClick={() => setMode(choice)}
              className={cn('inline-flex items-center gap-1.5 px-3 py-1.5 font-medium', mode === choice ? 'bg-brand-600 text-white' : 'bg-white text-slate-800 hover:bg-slate-50')}
            >
              {choice === 'erase' ? <Eraser className="h-4 w-4" aria-hidden="true" /> : <Brush className="h-4 w-4" aria-hidden="true" />}
              {choice === 'erase' ? 'Erase' : 'Restore'}
            </button>
          ))}
        </div>
        <label className="flex items-center gap-2 text-slate-800">
          Brush size
          <input type="range" min={4} max={Math.max(40, Math.round(Math.max(data.width, data.height) / 6))} value={size} onChange={(event) => setSize(Number(event.target.value))} aria-label="Brush size" />
        </label>
        <Button variant="ghost" size="sm" onClick={onUndo} disabled={undoCount === 0}>
          <Undo2 className="h-4 w-4" aria-hidden="true" /> Undo
        </Button>
      </div>
      <div className="relative mx-auto w-full max-w-full" style={{ aspectRatio: `${data.width} / ${data.height}`, maxHeight: '60vh' }}>
        <img src={data.photoUrl} alt="Product photo" className="absolute inset-0 h-full w-full rounded-lg object-fill" draggable={false} />
        <canvas
          ref={canvas}
          width={data.width}
          height={data.height}
          data-testid="cutout-mask"
          aria-label="Cutout mask: the tinted part is removed"
          className="absolute inset-0 h-full w-full cursor-crosshair touch-none rounded-lg"
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
        />
        {!ready && <Spinner className="absolute left-1/2 top-1/2 h-6 w-6 -translate-x-1/2 -translate-y-1/2 text-brand-600" label="Loading the mask" />}
      </div>
      <p className="text-xs text-slate-600">
        Tinted: removed from the packshot. Your cutout is kept for this photo and used for its other packshots too.{' '}
        {data.refinementsLeft} {data.refinementsLeft === 1 ? 'render' : 'renders'} from a refined cutout left for this packshot.
      </p>
      <div className="flex justify-end gap-2">
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button onClick={() => void onApply()} busy={applying} disabled={!ready || data.refinementsLeft === 0}>
          Apply
        </Button>
      </div>
    </div>
  );
}
