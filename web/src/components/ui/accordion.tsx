import * as AccordionPrimitive from '@radix-ui/react-accordion';
import { ChevronDown } from 'lucide-react';

export interface AccordionEntry {
  question: string;
  answer: string;
}

/** Questions and answers; one item open at a time, and the open one can be closed again. */
export function FaqAccordion({ items, headingLevel = 'h3' }: { items: readonly AccordionEntry[]; headingLevel?: 'h3' | 'h4' }) {
  return (
    <AccordionPrimitive.Root type="single" collapsible className="divide-y divide-slate-200 rounded-2xl border border-slate-200 bg-white">
      {items.map((item, index) => (
        <AccordionPrimitive.Item key={item.question} value={`item-${index}`} className="group">
          <AccordionPrimitive.Header asChild>
            {headingLevel === 'h3' ? (
              <h3 className="flex">
                <Trigger question={item.question} />
              </h3>
            ) : (
              <h4 className="flex">
                <Trigger question={item.question} />
              </h4>
            )}
          </AccordionPrimitive.Header>
          <AccordionPrimitive.Content className="px-5 pb-5 text-slate-700">{item.answer}</AccordionPrimitive.Content>
        </AccordionPrimitive.Item>
      ))}
    </AccordionPrimitive.Root>
  );
}

function Trigger({ question }: { question: string }) {
  return (
    <AccordionPrimitive.Trigger className="flex flex-1 items-center justify-between gap-4 px-5 py-4 text-left font-medium text-slate-900 hover:bg-slate-50">
      {question}
      <ChevronDown
        className="h-5 w-5 shrink-0 text-slate-500 transition-transform group-data-[state=open]:rotate-180"
        aria-hidden="true"
      />
    </AccordionPrimitive.Trigger>
  );
}
