// CloudWatch metrics in the embedded metric format through Powertools for AWS Lambda's Metrics: one JSON line per
// figure that CloudWatch Logs turns into metric data (no API call, no extra permission). Each call is published at
// once (a single metric), so no handler has to flush and a crash loses nothing already counted. Locally POWERTOOLS_DEV
// or POWERTOOLS_METRICS_DISABLED keeps these lines off the terminal and out of test output.
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

export const METRICS_NAMESPACE = 'ModelLoop';
export { MetricUnit };

const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: process.env.POWERTOOLS_SERVICE_NAME || 'modelloop' });

type Unit = (typeof MetricUnit)[keyof typeof MetricUnit];

/**
 * Publishes one or more figures with the same dimensions (none by default: the alarms read them without). The
 * service dimension Powertools adds by default is left out, so each metric is found by its name and the given
 * dimensions only.
 */
export function emitMetrics(figures: Record<string, number>, dimensions: Record<string, string> = {}, unit: Unit = MetricUnit.Count): void {
  const single = metrics.singleMetric();
  single.clearDefaultDimensions();
  for (const [name, value] of Object.entries(dimensions)) single.addDimension(name, value);
  for (const [name, value] of Object.entries(figures)) single.addMetric(name, unit, value);
}
