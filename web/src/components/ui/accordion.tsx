import { ChevronDown } from '@/components/first-load-icons';
import { useId, useState, type KeyboardEvent } from 'react';

export interface AccordionEntry {
  question: string;
  answer: string;
}

/**
 * Questions and answers; one item open at a time, and the open one can be closed again. The WAI-ARIA accordion
 * pattern written out (a button per heading, a labelled region per answer, arrow keys, Home and End between the
 * buttons) rather than a library's, because it sits in the landing page's first download.
 */
export function FaqAccordion({ items, headingLevel = 'h3' }: { items: readonly AccordionEntry[]; headingLevel?: 'h3' | 'h4' }) {
  const [open, setOpen] = useState<number | undefined>(undefined);
  const id = useId();
  const Heading = headingLevel;

  const moveFocus = (event: KeyboardEvent<HTMLDivElement>) => {
    const keys: Record<string, (index: number, count: number) => number> = {
      ArrowDown: (index, count) => (index + 1) % count,
      ArrowUp: (index, count) => (index - 1 + count) % count,
      Home: () => 0,
      End: (_, count) => count - 1,
    };
    const next = keys[event.key];
    const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('button[data-accordion-trigger]')];
    const index = buttons.indexOf(event.target as HTMLButtonElement);
    if (!next || index < 0) return;
    event.preventDefault();
    buttons[next(index, buttons.length)]?.focus();
  };

  return (
    <div className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white" onKeyDown={moveFocus}>
      {items.map((item, index) => {
        const expanded = open === index;
        const state = expanded ? 'open' : 'closed';
        return (
          <div key={item.question} className="group" data-state={state}>
            <Heading className="flex">
              <button
                type="button"
                id={`${id}-trigger-${index}`}
                aria-expanded={expanded}
                aria-controls={`${id}-content-${index}`}
                data-accordion-trigger=""
                data-state={state}
                onClick={() => setOpen(expanded ? undefined : index)}
                className="flex flex-1 items-center justify-between gap-4 px-5 py-4 text-left font-medium text-slate-900 hover:bg-slate-50"
              >
                {item.question}
                <ChevronDown
                  className="h-5 w-5 shrink-0 text-slate-500 transition-transform group-data-[state=open]:rotate-180"
                  aria-hidden="true"
                />
              </button>
            </Heading>
            <div
              id={`${id}-content-${index}`}
              role="region"
              aria-labelledby={`${id}-trigger-${index}`}
              hidden={!expanded}
              className="px-5 pb-5 text-slate-700"
            >
              {item.answer}
            </div>
          </div>
        );
      })}
    </div>
  );
}
