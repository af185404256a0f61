import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { cn } from '@/lib/cn';
import { DEMO_PAIRS } from '@/lib/demo-pairs';

const ROTATE_MS = 6000;
const FADE_MS = 500;
const KEY_STEP = 5;
const CENTER = 50;

const clamp = (value: number) => Math.min(100, Math.max(0, value));

/**
 * An interactive before/after comparison: drag the divider (mouse or touch), or use ←/→ (5% steps) and space (back to
 * 50%). It rotates through the example pairs every 6 s with a 500 ms fade, paused while hovered or focused.
 */
export function BeforeAfterSlider() {
  const [position, setPosition] = useState(CENTER);
  const [pairIndex, setPairIndex] = useState(0);
  const [fadedOut, setFadedOut] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const frameRef = useRef<HTMLDivElement>(null);
  const dragging = useRef(false);
  const paused = hovered || focused;

  useEffect(() => {
    if (paused) return;
    let fadeTimer: ReturnType<typeof setTimeout> | undefined;
    const rotateTimer = setInterval(() => {
      setFadedOut(true);
      fadeTimer = setTimeout(() => {
        setPairIndex((index) => (index + 1) % DEMO_PAIRS.length);
        setFadedOut(false);
      }, FADE_MS);
    }, ROTATE_MS);
    return () => {
      clearInterval(rotateTimer);
      clearTimeout(fadeTimer);
      setFadedOut(false);
    };
  }, [paused]);

  const moveTo = useCallback((clientX: number) => {
    const frame = frameRef.current;
    if (!frame) return;
    const rect = frame.getBoundingClientRect();
    if (rect.width > 0) setPosition(clamp(((clientX - rect.left) / rect.width) * 100));
  }, []);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    dragging.current = true;
    event.currentTarget.setPointerCapture(event.pointerId);
    moveTo(event.clientX);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (dragging.current) moveTo(event.clientX);
  };
  const endDrag = (event: PointerEvent<HTMLDivElement>) => {
    dragging.current = false;
    if (event.currentTarget.hasPointerCapture(event.pointerId)) event.currentTarget.releasePointerCapture(event.pointerId);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const next: Record<string, (value: number) => number> = {
      ArrowLeft: (value) => clamp(value - KEY_STEP),
      ArrowRight: (value) => clamp(value + KEY_STEP),
      ' ': () => CENTER,
      Home: () => 0,
      End: () => 100,
    };
    const update = next[event.key];
    if (!update) return;
    event.preventDefault();
    setPosition(update);
  };

  const pair = DEMO_PAIRS[pairIndex]!;
  const rounded = Math.round(position);

  return (
    <figure
      className="w-full max-w-md"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
    >
      <div
        ref={frameRef}
        className={cn(
          'relative aspect-[3/4] w-full cursor-ew-resize select-none overflow-hidden rounded-2xl shadow-2xl ring-1 ring-white/20 transition-opacity ease-in-out',
          fadedOut ? 'opacity-0' : 'opacity-100',
        )}
        style={{ touchAction: 'pan-y', transitionDuration: `${FADE_MS}ms` }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
        data-testid="before-after-frame"
      >
        <img src={pair.input} alt={pair.inputAlt} draggable={false} className="absolute inset-0 h-full w-full object-cover" />
        <img
          src={pair.output}
          alt={pair.outputAlt}
          draggable={false}
          className="absolute inset-0 h-full w-full object-cover"
          style={{ clipPath: `inset(0 0 0 ${position}%)` }}
        />
        <span className="absolute left-3 top-3 rounded-full bg-slate-900/80 px-3 py-1 text-xs font-semibold text-white">
          Before
        </span>
        <span className="absolute right-3 top-3 rounded-full bg-brand-700 px-3 py-1 text-xs font-semibold text-white">
          After
        </span>
        <div className="absolute inset-y-0 w-0.5 -translate-x-1/2 bg-white shadow" style={{ left: `${position}%` }} aria-hidden="true" />
        <div
          role="slider"
          tabIndex={0}
          aria-label="Before and after comparison divider"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={rounded}
          aria-valuetext={`${rounded}% before, ${100 - rounded}% after`}
          aria-orientation="horizontal"
          onKeyDown={onKeyDown}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
          className="absolute top-1/2 flex h-11 w-11 -translate-x-1/2 -translate-y-1/2 items-center justify-center rounded-full border-2 border-white bg-brand-600 text-white shadow-lg focus-visible:outline-4 focus-visible:outline-white"
          style={{ left: `${position}%` }}
        >
          <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true">
            <path d="M9 6l-6 6 6 6M15 6l6 6-6 6" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" />
          </svg>
        </div>
      </div>
      <figcaption className="mt-4 flex items-center justify-between text-sm text-brand-100">
        <span>
          Example: <span className="font-semibold text-white">{pair.category}</span>
        </span>
        <span className="flex gap-2" aria-hidden="true">
          {DEMO_PAIRS.map((example, index) => (
            <span
              key={example.output}
              className={cn('h-2 w-2 rounded-full', index === pairIndex ? 'bg-white' : 'bg-white/40')}
            />
          ))}
        </span>
      </figcaption>
    </figure>
  );
}
