// CloudWatch metrics as embedded-metric-format log lines: one JSON line that CloudWatch Logs turns into metric data
// (no API call, no extra permission). Locally the same line goes to the terminal.
export const METRICS_NAMESPACE = 'ModelLoop';

export function emitMetrics(metrics: Record<string, number>, dimensions: Record<string, string> = {}): void {
  console.log(
    JSON.stringify({
      _aws: {
        Timestamp: Date.now(),
        CloudWatchMetrics: [
          {
            Namespace: METRICS_NAMESPACE,
            Dimensions: [Object.keys(dimensions)],
            Metrics: Object.keys(metrics).map((Name) => ({ Name, Unit: 'Count' })),
          },
        ],
      },
      ...dimensions,
      ...metrics,
    }),
  );
}
