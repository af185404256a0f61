// Synth's check of the models a stage calls against the providers' dated tables (lambdas/providers/model-lifecycle.ts):
// an id that is unknown, or whose shutdown date has passed, fails synth naming the replacement; one that shuts down
// within SHUTDOWN_WARNING_DAYS is printed as a warning. The clock is the machine's: a test moves it.
import { checkConfiguredModels, SHUTDOWN_WARNING_DAYS } from '../lambdas/providers/model-lifecycle.js';
import { configuredModels, MODEL_TABLES, type ModelSelection } from '../lambdas/providers/configured-models.js';

export function checkModels(stage: string, selection: ModelSelection, now = new Date(), warn: (line: string) => void = console.warn): void {
  const { refused, warnings } = checkConfiguredModels(configuredModels(selection), MODEL_TABLES, now);
  if (warnings.length > 0) warn(`Stage '${stage}' calls models that shut down within ${SHUTDOWN_WARNING_DAYS} days:\n${warnings.map((line) => `  ${line}`).join('\n')}`);
  if (refused.length > 0) {
    throw new Error(
      `Stage '${stage}' names models its providers do not serve:\n${refused.map((line) => `  ${line}`).join('\n')}\n` +
        'Set the replacement (docs/deploy.md: context keys; docs/providers.md: the dated model tables).',
    );
  }
}
