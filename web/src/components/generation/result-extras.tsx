// What a finished result's card offers besides its own actions, filled in by the app from features that shared
// components may not import (Publish to Shopify: web/src/features/shops). Nothing when no feature provides it.
import type { PublishedPlace } from '@contracts/generations';
import { createContext, useContext, type ComponentType } from 'react';

export interface ResultExtrasProps {
  /** The finished result: an image, a packshot, or one output of a video (its history row's id). */
  generationId: string;
  /** What it is called (its alt text when published); read with the result when absent. */
  title?: string;
  /** Where it was published; absent when the card doesn't know (the extra reads the result itself). */
  published?: PublishedPlace[];
  compact?: boolean;
}

export const ResultExtrasContext = createContext<ComponentType<ResultExtrasProps> | null>(null);

export function ResultExtras(props: ResultExtrasProps) {
  const Extra = useContext(ResultExtrasContext);
  return Extra ? <Extra {...props} /> : null;
}
