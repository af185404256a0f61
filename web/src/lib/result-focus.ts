// Keyboard focus follows long work to its result: the Generate button is disabled while the work runs, which drops
// focus to the page body, so the panel that shows the progress and then the result takes it instead.
import { useEffect, useRef, useState } from 'react';

/**
 * A ref for the panel that shows a piece of work. Focus moves to it when `working` turns true (the request was sent)
 * and when the `outcome` of work started on this screen arrives (its result or failure), never for a result that was
 * only opened. It only takes focus that is lost (on the body or a disabled control) or already inside the panel: a
 * seller who moved on to another field keeps their place.
 */
export function useResultFocus<T extends HTMLElement>(working: boolean, outcome: string | undefined) {
  const panel = useRef<T>(null);
  const [started, setStarted] = useState(false);
  if (working && !started) setStarted(true);
  const stage = working ? 'working' : started ? outcome : undefined;
  useEffect(() => {
    const element = panel.current;
    if (stage === undefined || !element) return;
    // The Generate button that was just disabled still holds focus until the browser drops it to the body.
    const active = document.activeElement;
    const lost = active === null || active === document.body || active.matches(':disabled');
    if (lost || element.contains(active)) element.focus();
  }, [stage]);
  return panel;
}
