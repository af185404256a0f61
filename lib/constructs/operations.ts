// What wakes the operators and what they look at: CloudWatch alarms on everything that means "something broke or
// is stuck", one SNS topic they notify (an e-mail subscription when the `alarmEmail` context is given), and one
// dashboard with the same metrics.
//
//   Dead-letter queues  any message at all: each one is work that was given up on.
//   Lambda              errors and throttles per function group (API, workflows, realtime, operations); a group's
//                       functions are summed by metric math, at most 10 per alarm (CloudWatch's limit), so a
//                       large group gets several alarms.
//   Workflows           per state machine: failed, timed out, aborted executions. Aborts are also how a user's
//                       cancel stops a video, and a generation refused by the provider's content filter fails its
//                       execution: those two alarm on a burst, not on one.
//   HTTP API            5xx answers and p99 latency.
//   Reconciler          its findings (stuck work it had to settle, ledger drift): any is a bug to look at.
//   Model check         a configured model the provider no longer serves, or shuts down soon (ModelsNotServed, from
//                       the daily check, lambdas/handlers/model-check.ts): docs/operations.md says what to do.
import { Duration, Validations } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  AlarmStatusWidget,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  TextWidget,
  TreatMissingData,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import type { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { SERVICE_NAME } from '../../lambdas/core/log.js';
import { METRICS_NAMESPACE } from '../../lambdas/core/metrics.js';
import { pascalCase } from './names.js';

export interface OperationsProps {
  /** Subscribed to the alarm topic by e-mail (the `alarmEmail` context); none when absent. */
  alarmEmail?: string;
  /** Every dead-letter queue of the stack, by a name people read. */
  deadLetterQueues: Record<string, IQueue>;
  /** The stack's functions by group. */
  functionGroups: Record<string, IFunction[]>;
  stateMachines: Record<string, StateMachine>;
  httpApi: HttpApi;
}

/** CloudWatch alarms on metric math take at most this many metrics. */
const METRICS_PER_ALARM = 10;
const FIVE_MINUTES = Duration.minutes(5);
const FIFTEEN_MINUTES = Duration.minutes(15);

/** Thresholds, in one place. */
export const ALARM_THRESHOLDS = {
  lambdaErrors: 5,
  lambdaThrottles: 1,
  executionsFailed: 5,
  executionsTimedOut: 1,
  executionsAborted: 20,
  api5xx: 5,
  apiP99Ms: 5_000,
  reconcilerFindings: 1,
  supportMailFailed: 1,
  modelsNotServed: 1,
} as const;

export class Operations extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: OperationsProps) {
    super(scope, id);
    this.topic = new Topic(this, 'AlarmTopic', { displayName: 'ModelLoop alarms', enforceSSL: true });
    Validations.of(this.topic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason: 'The topic carries only CloudWatch alarm notices (alarm name, metric, threshold), no user data; CloudWatch cannot publish to a topic encrypted with the AWS managed SNS key.',
    });
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    const action = new SnsAction(this.topic);
    const alarm = (name: string, metric: IMetric, threshold: number, description: string): Alarm => {
      const created = new Alarm(this, `${pascalCase(name.replace(/[^A-Za-z0-9]+/g, '-').toLowerCase())}Alarm`, {
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      created.addAlarmAction(action);
      created.addOkAction(action);
      this.alarms.push(created);
      return created;
    };

    const dlqMetrics: IMetric[] = [];
    for (const [name, queue] of Object.entries(props.deadLetterQueues)) {
      const visible = queue.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum', label: name });
      dlqMetrics.push(visible);
      alarm(`dlq ${name}`, visible, 1, `A message is waiting in the ${name} dead-letter queue: work that was given up on. Read it, fix the cause, redrive.`);
    }

    const errorGraphs: IMetric[] = [];
    const throttleGraphs: IMetric[] = [];
    Object.entries(props.functionGroups).forEach(([group, functions], groupIndex) => {
      const chunks = chunk(functions, METRICS_PER_ALARM);
      chunks.forEach((members, index) => {
        const part = chunks.length > 1 ? ` ${index + 1} of ${chunks.length}` : '';
        // Ids unique across the dashboard's graphs, which show every group's expression together.
        const sum = (metricOf: (fn: IFunction) => Metric, what: string) =>
          new MathExpression({
            expression: members.map((_, i) => `${what}${groupIndex}_${index}_${i}`).join(' + '),
            usingMetrics: Object.fromEntries(members.map((fn, i) => [`${what}${groupIndex}_${index}_${i}`, metricOf(fn)])),
            period: FIVE_MINUTES,
            label: `${group}${part} ${what}`,
          });
        const errors = sum((fn) => fn.metricErrors({ period: FIVE_MINUTES, statistic: 'Sum' }), 'errors');
        const throttles = sum((fn) => fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }), 'throttles');
        errorGraphs.push(errors);
        throttleGraphs.push(throttles);
        alarm(`lambda errors ${group}${part}`, errors, ALARM_THRESHOLDS.lambdaErrors, `Functions of the ${group} group${part} failed ${ALARM_THRESHOLDS.lambdaErrors}+ times in 5 minutes.`);
        alarm(`lambda throttles ${group}${part}`, throttles, ALARM_THRESHOLDS.lambdaThrottles, `Functions of the ${group} group${part} were throttled (account or reserved concurrency reached).`);
      });
    });

    const executionGraphs: IMetric[] = [];
    for (const [name, stateMachine] of Object.entries(props.stateMachines)) {
      const failed = stateMachine.metricFailed({ period: FIFTEEN_MINUTES, statistic: 'Sum', label: `${name} failed` });
      const timedOut = stateMachine.metricTimedOut({ period: FIFTEEN_MINUTES, statistic: 'Sum', label: `${name} timed out` });
      const aborted = stateMachine.metricAborted({ period: FIFTEEN_MINUTES, statistic: 'Sum', label: `${name} aborted` });
      executionGraphs.push(failed, timedOut, aborted);
      alarm(`${name} executions failed`, failed, ALARM_THRESHOLDS.executionsFailed, `${ALARM_THRESHOLDS.executionsFailed}+ ${name} executions failed in 15 minutes (one failure can be a refused input; a burst is a provider or code problem).`);
      alarm(`${name} executions timed out`, timedOut, ALARM_THRESHOLDS.executionsTimedOut, `A ${name} execution ran into its workflow timeout.`);
      alarm(`${name} executions aborted`, aborted, ALARM_THRESHOLDS.executionsAborted, `${ALARM_THRESHOLDS.executionsAborted}+ ${name} executions were aborted in 15 minutes (cancels abort too: a burst is suspicious).`);
    }

    const api5xx = props.httpApi.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum', label: 'HTTP API 5xx' });
    const apiP99 = props.httpApi.metricLatency({ period: FIVE_MINUTES, statistic: 'p99', label: 'HTTP API p99 latency (ms)' });
    const apiCount = props.httpApi.metricCount({ period: FIVE_MINUTES, statistic: 'Sum', label: 'HTTP API requests' });
    alarm('api 5xx', api5xx, ALARM_THRESHOLDS.api5xx, `The HTTP API answered ${ALARM_THRESHOLDS.api5xx}+ server errors in 5 minutes.`);
    const slow = new Alarm(this, 'ApiP99LatencyAlarm', {
      alarmDescription: `The HTTP API's p99 latency stayed above ${ALARM_THRESHOLDS.apiP99Ms} ms for 15 minutes.`,
      metric: apiP99,
      threshold: ALARM_THRESHOLDS.apiP99Ms,
      evaluationPeriods: 3,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    slow.addAlarmAction(action);
    slow.addOkAction(action);
    this.alarms.push(slow);

    const metric = (name: string, label: string) => new Metric({ namespace: METRICS_NAMESPACE, metricName: name, dimensionsMap: { service: SERVICE_NAME }, period: FIFTEEN_MINUTES, statistic: 'Sum', label });
    const findings = metric('ReconcilerFindings', 'reconciler findings');
    alarm('reconciler findings', findings, ALARM_THRESHOLDS.reconcilerFindings, 'The reconciler settled stuck work or found ledger drift: its error log names the records and users.');
    // Counted by the support ticket function (Powertools metrics) whenever a stored ticket's mail was refused.
    const supportMailFailed = metric('SupportMailFailed', 'support mails failed');
    alarm(
      'support mail failed',
      supportMailFailed,
      ALARM_THRESHOLDS.supportMailFailed,
      "A support ticket was stored but its mail was refused (its mail_status is 'failed'): the error log names the ticket and SES's reason, often an identity not verified in the SES sandbox.",
    );

    // The daily model check counts the configured models a provider no longer serves (or shuts down within 60 days).
    // One run a day: the alarm's period is the day, so it stays in alarm until a run finds every model served.
    const modelsNotServed = new Metric({ namespace: METRICS_NAMESPACE, metricName: 'ModelsNotServed', dimensionsMap: { service: SERVICE_NAME }, period: Duration.days(1), statistic: 'Maximum' });
    alarm(
      'models not served',
      modelsNotServed,
      ALARM_THRESHOLDS.modelsNotServed,
      "The daily model check found a configured model its provider no longer serves or shuts down soon: its error log names the model, the date and the replacement (docs/operations.md, 'Model check').",
    );

    this.dashboard = new Dashboard(this, 'Dashboard', {
      defaultInterval: Duration.hours(6),
      widgets: [
        [new TextWidget({ markdown: '# ModelLoop operations\nAlarms notify the alarm topic; the reconciler runs every 15 minutes.', width: 24, height: 2 })],
        [new AlarmStatusWidget({ title: 'Alarms', alarms: this.alarms, width: 24, height: 4 })],
        [
          new GraphWidget({ title: 'HTTP API: requests and 5xx', left: [apiCount], right: [api5xx], width: 12 }),
          new GraphWidget({ title: 'HTTP API: p99 latency (ms)', left: [apiP99], width: 12 }),
        ],
        [
          new GraphWidget({ title: 'Lambda errors by group', left: errorGraphs, width: 12 }),
          new GraphWidget({ title: 'Lambda throttles by group', left: throttleGraphs, width: 12 }),
        ],
        [
          new GraphWidget({ title: 'Workflow executions failed / timed out / aborted', left: executionGraphs, width: 12 }),
          new GraphWidget({ title: 'Dead-letter queues (messages visible)', left: dlqMetrics, width: 12 }),
        ],
        [
          new GraphWidget({
            title: 'Reconciler',
            left: [findings, metric('StuckWorkSettled', 'stuck work settled'), metric('LedgerDrift', 'ledgers drifted')],
            right: [metric('LedgersAudited', 'ledgers audited')],
            width: 24,
          }),
        ],
      ],
    });
  }
}

function chunk<T>(items: T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let index = 0; index < items.length; index += size) chunks.push(items.slice(index, index + size));
  return chunks;
}
