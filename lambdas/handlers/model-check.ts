// The daily model check (an EventBridge schedule in the cloud: lib/constructs/model-check.ts): asks each provider
// whether each model this stage calls is still served, logs one line per model and counts those not served
// (ModelsNotServed), which raises the operations alarm. What to do then: docs/operations.md, "Model check".
import { emitMetrics } from '../core/metrics.js';
import { log } from '../core/log.js';
import { nonHttpFunction } from '../core/task.js';
import { checkModels, formatLine, notServed, probesFor, selectionOf } from '../domain/operations/model-check.js';
import { readProviderConfig } from '../providers/config.js';

export const handler = nonHttpFunction('model-check', async (): Promise<{ lines: string[]; notServed: number }> => {
  const config = readProviderConfig(process.env);
  const lines = await checkModels(selectionOf(config), probesFor(config));
  const missing = notServed(lines);
  for (const line of lines) {
    const fields = { provider: line.model.provider, model: line.model.id, setting: line.model.setting, availability: line.availability, date: line.date, replacement: line.replacement };
    if (line.availability === 'served') log.info(formatLine(line), fields);
    else log.error(formatLine(line), fields);
  }
  emitMetrics({ ModelsChecked: lines.length, ModelsNotServed: missing.length });
  return { lines: lines.map(formatLine), notServed: missing.length };
});
