// One Standard state machine per entry of the shared workflow table (lambdas/workflows.ts): the ASL file's own text
// (the very file the local twin runs), with each task placeholder substituted by the ARN of a function built from
// the table. A state machine from a file gets no policy for what its tasks call, so each invoke is granted here.
import { Duration, RemovalPolicy, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import { Rule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { DefinitionBody, LogLevel, StateMachine, StateMachineType } from 'aws-cdk-lib/aws-stepfunctions';
import { Construct } from 'constructs';
import { ENDED_STATUSES, WORKFLOW_ENDED_FUNCTION, WORKFLOWS, type WorkflowDefinition } from '../../lambdas/workflows.js';
import { readWorkflowText } from '../workflows/index.js';
import type { FunctionFactory } from './function-factory.js';
import { pascalCase } from './names.js';
import { workflowStateMachineName } from './workflow-names.js';

export interface WorkflowsProps {
  functions: FunctionFactory;
}

export class Workflows extends Construct {
  readonly stateMachines: Record<string, StateMachine> = {};
  /** Every function of the workflows: their task functions and workflow-ended (for alarms and dashboards). */
  readonly functions: NodejsFunction[] = [];
  /** Each workflow's task functions by placeholder, for what the stack adds to one (an environment variable, a grant). */
  readonly taskFunctions: Record<string, Record<string, NodejsFunction>> = {};
  /** Status changes workflow-ended still failed to take after the rule's retries. */
  readonly deadLetterQueue: Queue;

  constructor(scope: Construct, id: string, props: WorkflowsProps) {
    super(scope, id);
    for (const [name, workflow] of Object.entries(WORKFLOWS) as [string, WorkflowDefinition][]) {
      const prefix = pascalCase(name);
      const substitutions: Record<string, string> = {};
      this.taskFunctions[name] = {};
      const taskFunctions = Object.entries(workflow.tasks).map(([placeholder, task]) => {
        const fn = props.functions.create(this, `${prefix}${placeholder}Function`, task);
        substitutions[placeholder] = fn.functionArn;
        this.functions.push(fn);
        this.taskFunctions[name]![placeholder] = fn;
        return fn;
      });
      const logs = new LogGroup(this, `${prefix}Logs`, { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
      const stateMachine = new StateMachine(this, `${prefix}StateMachine`, {
        // A known name gives executions a known ARN prefix, so functions are granted exactly this workflow's executions.
        stateMachineName: workflowStateMachineName(this, name),
        stateMachineType: StateMachineType.STANDARD,
        definitionBody: DefinitionBody.fromString(readWorkflowText(workflow)),
        definitionSubstitutions: substitutions,
        // Every event is logged, without the execution data (images, user ids) it carries.
        logs: { destination: logs, level: LogLevel.ALL, includeExecutionData: false },
        tracingEnabled: true,
      });
      const validations = Validations.of(stateMachine.role);
      for (const fn of taskFunctions) {
        fn.grantInvoke(stateMachine);
        const functionId = Stack.of(fn).getLogicalId(fn.node.defaultChild as CfnElement);
        validations.acknowledge({
          id: `AwsSolutions-IAM5[Resource::<${functionId}.Arn>:*]`,
          reason: `grantInvoke also allows the task function's versions and aliases (ARN:*); the ${name} workflow invokes only its own task functions.`,
        });
      }
      validations.acknowledge({
        id: 'AwsSolutions-IAM5[Resource::*]',
        reason: 'X-Ray tracing: xray:PutTraceSegments and related actions support no resource-level permissions.',
      });
      this.stateMachines[name] = stateMachine;
    }
    props.functions.useStateMachines(this.stateMachines);

    // Executions that end without settling their own work are settled as soon as Step Functions reports it.
    const ended = props.functions.create(this, 'WorkflowEndedFunction', WORKFLOW_ENDED_FUNCTION);
    this.functions.push(ended);
    const deadLetters = new Queue(this, 'WorkflowEndedDeadLetters', { enforceSSL: true, encryption: QueueEncryption.SQS_MANAGED, retentionPeriod: Duration.days(14) });
    Validations.of(deadLetters).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason: 'This queue is itself the dead-letter queue of the workflow-ended rule target.',
    });
    new Rule(this, 'WorkflowEndedRule', {
      description: 'Settles jobs and generations whose workflow execution failed, timed out or was aborted',
      eventPattern: {
        source: ['aws.states'],
        detailType: ['Step Functions Execution Status Change'],
        detail: {
          status: [...ENDED_STATUSES],
          stateMachineArn: Object.values(this.stateMachines).map((stateMachine) => stateMachine.stateMachineArn),
        },
      },
      targets: [new LambdaFunction(ended, { deadLetterQueue: deadLetters, retryAttempts: 8, maxEventAge: Duration.hours(6) })],
    });
    this.deadLetterQueue = deadLetters;
  }
}

