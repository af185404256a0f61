// CloudWatch metrics in the embedded metric format through Powertools for AWS Lambda's Metrics: one JSON line per
// figure that CloudWatch Logs turns into metric data (no API call, no extra permission). Each call is published at
// once (a single metric), so no handler has to flush and a crash loses nothing already counted. Locally POWERTOOLS_DEV
// or POWERTOOLS_METRICS_DISABLED keeps these lines off the terminal and out of test output.
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { SERVICE_NAME } from './log.js';

export const METRICS_NAMESPACE = 'ModelLoop';
export { MetricUnit };

// Made at first use, not at import: the twin and the tests set POWERTOOLS_DEV / POWERTOOLS_METRICS_DISABLED first.
let metrics: Metrics | undefined;

type Unit = (typeof MetricUnit)[keyof typeof MetricUnit];

/**
 * Publishes figures with the given dimensions besides Powertools' own `service` (modelloop), which every metric
 * carries, so a metric without other dimensions is found by its name and the service alone (the alarms read them so).
 */
export function emitMetrics(figures: Record<string, number>, dimensions: Record<string, string> = {}, unit: Unit = MetricUnit.Count): void {
  metrics ??= new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME });
  for (const [name, value] of Object.entries(figures)) {
    // A single metric is published at once and forgets its dimensions: one per figure.
    const single = metrics.singleMetric();
    for (const [key, dimension] of Object.entries(dimensions)) single.addDimension(key, dimension);
    single.addMetric(name, unit, value);
  }
}
