// What every provider's dated table of models (google/model-table.ts, fashn/model-table.ts, bedrock/model-table.ts)
// says of one model, and what a stage may do with a configured id at a given date. Pure (no SDK, no clock of its own):
// synth (lib/model-check.ts), `npm run providers:check` and the daily model check in the cloud all read it.
//
// A provider announces a shutdown date and a replacement (Google: the deprecations page; AWS: the model lifecycle
// page), and on that date the id stops answering (Gemini API: 404 "... is no longer available"). So a configured id is
//   unknown        not in its provider's table: refused, the adapter would not know its sizes nor the margin check its cost;
//   shut down      its shutdown date has passed: refused, naming the replacement;
//   shutting down  its shutdown is within SHUTDOWN_WARNING_DAYS: a warning (synth), an alarm (the daily check);
//   served         otherwise.

/** A document a table's fact comes from, and the day it was read. */
export interface DatedDocument {
  url: string;
  /** YYYY-MM-DD */
  read: string;
  /** The words the fact rests on, where the document says it in so many words. */
  quote?: string;
}

export interface ModelLifecycle {
  /** What the studio calls the model for, e.g. 'on-model photos and edits'. */
  use: string;
  /** YYYY-MM-DD; absent where no document read gives it (said so at the entry). */
  released?: string;
  /** The announced shutdown (the earliest date the provider gives) and the id it recommends instead. */
  shutdown?: { date: string; replacement: string };
  /** Where the release and shutdown dates come from. */
  lifecycleSource: DatedDocument;
  /** Where the prices come from (the table's own price fields). */
  priceSource?: DatedDocument;
}

export type ModelProvider = 'google' | 'fashn' | 'bedrock';

/** Days before a shutdown from which synth warns and the daily check alarms. */
export const SHUTDOWN_WARNING_DAYS = 60;
const DAY_MS = 86_400_000;

export type ModelState =
  | { state: 'served' }
  | { state: 'shutting-down'; date: string; replacement: string; days: number }
  | { state: 'shut-down'; date: string; replacement: string }
  | { state: 'unknown' };

/** The shutdown date is the first day the id no longer answers (UTC). */
export function modelState(entry: ModelLifecycle | undefined, now: Date): ModelState {
  if (!entry) return { state: 'unknown' };
  if (!entry.shutdown) return { state: 'served' };
  const ends = Date.parse(`${entry.shutdown.date}T00:00:00Z`);
  if (now.getTime() >= ends) return { state: 'shut-down', ...entry.shutdown };
  const days = Math.ceil((ends - now.getTime()) / DAY_MS);
  return days <= SHUTDOWN_WARNING_DAYS ? { state: 'shutting-down', ...entry.shutdown, days } : { state: 'served' };
}

/** A model id a stage's configuration names, with the setting that named it (a context key, or an adapter's own). */
export interface ConfiguredModel {
  provider: ModelProvider;
  id: string;
  /** e.g. 'googleVideoModel', or 'fashn product-to-model' for an id the adapter fixes. */
  setting: string;
}

export interface ModelCheck {
  /** Ids synth refuses: unknown, or past their shutdown. */
  refused: string[];
  /** Ids whose shutdown is near. */
  warnings: string[];
}

/** What synth says of each configured id at `now`, reading each provider's table. */
export function checkConfiguredModels(
  configured: readonly ConfiguredModel[],
  tables: Record<ModelProvider, Readonly<Record<string, ModelLifecycle>>>,
  now: Date,
): ModelCheck {
  const refused: string[] = [];
  const warnings: string[] = [];
  for (const model of configured) {
    const table = tables[model.provider];
    const state = modelState(table[model.id], now);
    if (state.state === 'unknown') {
      const served = Object.keys(table).filter((id) => modelState(table[id], now).state === 'served');
      refused.push(`${model.setting} '${model.id}' is not in the ${model.provider} model table (${TABLE_FILES[model.provider]}); models served today: ${served.join(', ')}`);
    } else if (state.state === 'shut-down') {
      refused.push(`${model.setting} '${model.id}': ${model.provider} shut this model down on ${state.date}; use '${state.replacement}'`);
    } else if (state.state === 'shutting-down') {
      warnings.push(`${model.setting} '${model.id}': ${model.provider} shuts this model down on ${state.date} (in ${state.days} days); move to '${state.replacement}'`);
    }
  }
  return { refused, warnings };
}

export const TABLE_FILES: Record<ModelProvider, string> = {
  google: 'lambdas/providers/google/model-table.ts',
  fashn: 'lambdas/providers/fashn/model-table.ts',
  bedrock: 'lambdas/providers/bedrock/model-table.ts',
};
