// Step Functions on the local twin: a small server that speaks the Step Functions API (AWS JSON 1.0:
// StartExecution, DescribeExecution, StopExecution) so handlers use their SFNClient unchanged, and runs each execution
// with aws-local-stepfunctions from the very ASL files CDK deploys. Each Lambda task state invokes its own function
// (the workflow's task, e.g. batch-MakePhoto: its bundle, its worker). As the cloud's API, it answers only requests
// signed (SigV4) with the twin's credentials or a function's, and a function only within its grants (grants.ts).
// Executions live in memory: a restart of the twin forgets running executions.
import './promise-with-resolvers.js';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { ExecutionAbortedError, ExecutionError, ExecutionTimeoutError, StateMachine, type StateMachineDefinition } from 'aws-local-stepfunctions';
import { STEP_FUNCTIONS_PAYLOAD_BYTES } from '../../lambdas/contracts/aws-limits.js';
import { WORKFLOWS, workflowEnvName, type WorkflowDefinition, type WorkflowName } from '../../lambdas/workflows.js';
import { readWorkflowText, substituteTasks } from '../workflows/index.js';
import type { ExecutionStatusChangeEvent } from '../../lambdas/handlers/workflow-ended.js';
import { taskFunctionName } from './deployed-functions.js';
import { stepFunctionsRefusal, type TwinAccess } from './grants.js';
import type { Invoke } from './lambda-runtime.js';
import { checkSigV4, sendSignatureRefusal } from './sigv4.js';
const REGION = 'us-east-1';
const ACCOUNT = '000000000000';

export interface StepFunctionsLocal {
  endpoint: string;
  /** WORKFLOW_<NAME>_ARN → state machine ARN, for the handlers' environment. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

type Status = 'RUNNING' | 'SUCCEEDED' | 'FAILED' | 'TIMED_OUT' | 'ABORTED';

interface Execution {
  executionArn: string;
  stateMachineArn: string;
  name: string;
  input: string;
  status: Status;
  startDate: number;
  stopDate?: number;
  output?: string;
  error?: string;
  cause?: string;
  abort: () => void;
  done: Promise<void>;
}

interface LocalStateMachine {
  arn: string;
  machine: StateMachine;
  definition: StateMachineDefinition;
  handlers: Record<string, (input: unknown) => Promise<unknown>>;
}

/** The function ARN a placeholder stands for on the local twin; the function's name (taskFunctionName) is its last part. */
export const localFunctionArn = (name: string) => `arn:aws:lambda:${REGION}:${ACCOUNT}:function:${name}`;

/** The workflow's ASL file with the local function ARN of each task in place of its `${Placeholder}`. */
export function loadDefinition(name: WorkflowName): StateMachineDefinition {
  const workflow: WorkflowDefinition = WORKFLOWS[name];
  const text = substituteTasks(readWorkflowText(workflow), workflow, (placeholder) => localFunctionArn(taskFunctionName(name, placeholder)));
  return JSON.parse(text) as StateMachineDefinition;
}

/** Every Task state (in Map iterators and Parallel branches too) whose Resource is a function ARN. */
function taskStates(definition: { States?: Record<string, any> }): [string, string][] {
  const found: [string, string][] = [];
  for (const [name, state] of Object.entries(definition.States ?? {})) {
    if (state.Type === 'Task' && typeof state.Resource === 'string' && state.Resource.includes(':function:')) found.push([name, state.Resource]);
    for (const nested of [state.Iterator, state.ItemProcessor, ...(state.Branches ?? [])]) if (nested) found.push(...taskStates(nested));
  }
  return found;
}

/** Every Wait state (in Map iterators and Parallel branches too). */
function waitStates(definition: { States?: Record<string, any> }): string[] {
  const found: string[] = [];
  for (const [name, state] of Object.entries(definition.States ?? {})) {
    if (state.Type === 'Wait') found.push(name);
    for (const nested of [state.Iterator, state.ItemProcessor, ...(state.Branches ?? [])]) if (nested) found.push(...waitStates(nested));
  }
  return found;
}

/**
 * When set (tests, benches), every Wait state of a local execution waits this many milliseconds instead of its ASL
 * seconds; read when an execution starts. Unset, Wait states wait as long as in the cloud.
 */
export const LOCAL_WAIT_MS_ENV = 'MODELLOOP_LOCAL_WAIT_MS';

function waitOverrides(definition: StateMachineDefinition): Record<string, number> | undefined {
  const value = process.env[LOCAL_WAIT_MS_ENV];
  if (value === undefined || value === '' || !Number.isFinite(Number(value))) return undefined;
  return Object.fromEntries(waitStates(definition as { States?: Record<string, any> }).map((name) => [name, Number(value)]));
}

/**
 * When set (tests), every Lambda task of a local execution starts this many milliseconds late, as a slow cold start
 * would: work stays in flight long enough to, e.g., kill the twin in the middle of it.
 */
export const LOCAL_TASK_DELAY_MS_ENV = 'MODELLOOP_LOCAL_TASK_DELAY_MS';

export async function startStepFunctionsLocal(options: {
  port: number;
  /** Runs a task's function by its name. */
  invoke: Invoke;
  /** The credentials the API accepts and what each may do; its resources get the state machines' ARNs. */
  access: TwinAccess;
  log: (line: string) => void;
  /** Gets each status change of an execution that has ended, as EventBridge delivers it in the cloud. */
  onExecutionEnded?: (event: ExecutionStatusChangeEvent) => Promise<void>;
}): Promise<StepFunctionsLocal> {
  const machines = new Map<string, LocalStateMachine>();
  const env: Record<string, string> = {};
  const { access } = options;
  for (const name of Object.keys(WORKFLOWS) as WorkflowName[]) {
    const arn = `arn:aws:states:${REGION}:${ACCOUNT}:stateMachine:modelloop-${name}`;
    const definition = loadDefinition(name);
    const handlers: LocalStateMachine['handlers'] = {};
    for (const [stateName, resource] of taskStates(definition as { States?: Record<string, any> })) {
      const functionName = resource.split(':function:')[1]!;
      handlers[stateName] = async (input) => {
        const delayMs = Number(process.env[LOCAL_TASK_DELAY_MS_ENV] ?? 0);
        if (delayMs > 0) await new Promise((resolveDelay) => setTimeout(resolveDelay, delayMs));
        return options.invoke(functionName, input);
      };
    }
    machines.set(arn, { arn, machine: new StateMachine(definition, { validationOptions: { checkArn: true } }), definition, handlers });
    env[workflowEnvName(name)] = arn;
    access.resources.workflows[name] = arn;
  }

  const executions = new Map<string, Execution>();

  function startExecution(request: { stateMachineArn?: string; name?: string; input?: string }) {
    const machine = machines.get(request.stateMachineArn ?? '');
    if (!machine) throw apiError('StateMachineDoesNotExist', `State Machine Does Not Exist: '${request.stateMachineArn}'`);
    const name = request.name ?? randomUUID();
    const input = request.input ?? '{}';
    if (Buffer.byteLength(input) > STEP_FUNCTIONS_PAYLOAD_BYTES) {
      throw apiError('InvalidExecutionInput', `Input exceeds the maximum size of ${STEP_FUNCTIONS_PAYLOAD_BYTES} bytes (UTF-8)`);
    }
    const executionArn = `${machine.arn.replace(':stateMachine:', ':execution:')}:${name}`;
    const existing = executions.get(executionArn);
    if (existing) {
      // As Step Functions: the same name and input while running is the same execution; anything else is refused.
      if (existing.status === 'RUNNING' && existing.input === input) return { executionArn, startDate: existing.startDate };
      throw apiError('ExecutionAlreadyExists', `Execution Already Exists: '${executionArn}'`);
    }
    // Every state's input and output is held to the 256 KiB quota. A task's are checked around its handler, so the
    // execution ends before the next state starts; Pass, Map and Choice states' through the event log. Over it the
    // execution fails with States.DataLimitExceeded, which no Catch (not even States.ALL) handles.
    const started: { execution?: Execution } = {};
    const overLimit = (state: string, value: unknown, what: 'input' | 'result'): boolean => {
      if (value === undefined || Buffer.byteLength(JSON.stringify(value)) <= STEP_FUNCTIONS_PAYLOAD_BYTES) return false;
      const { execution } = started;
      if (execution) {
        settle(execution, 'FAILED', {
          error: 'States.DataLimitExceeded',
          cause: `The state/task '${state}' ${what === 'input' ? 'was given an input' : 'returned a result'} with a size exceeding the maximum number of bytes service limit.`,
        });
        execution.abort();
      }
      return true;
    };
    const handlers = Object.fromEntries(
      Object.entries(machine.handlers).map(([state, handler]) => [
        state,
        async (stateInput: unknown) => {
          await null; // the execution record exists once run() has returned
          if (overLimit(state, stateInput, 'input')) return new Promise(() => undefined);
          const result = await handler(stateInput);
          if (overLimit(state, result, 'result')) return new Promise(() => undefined);
          return result;
        },
      ]),
    );
    const run = machine.machine.run(JSON.parse(input), {
      overrides: { taskResourceLocalHandlers: handlers as never, waitTimeOverrides: waitOverrides(machine.definition) },
    });
    const execution: Execution = {
      executionArn,
      stateMachineArn: machine.arn,
      name,
      input,
      status: 'RUNNING',
      startDate: Date.now() / 1000,
      abort: run.abort,
      done: Promise.resolve(),
    };
    started.execution = execution;
    const current = execution;
    void (async () => {
      for await (const event of run.eventLogs) {
        if (current.status !== 'RUNNING') break;
        if (event.type === 'StateEntered') overLimit(event.state.name, event.state.input, 'input');
        if (event.type === 'StateExited') overLimit(event.state.name, event.state.output, 'result');
      }
    })().catch(() => undefined);
    execution.done = run.result.then(
      (output) => settle(current, 'SUCCEEDED', { output: JSON.stringify(output) }),
      (error: unknown) => {
        if (error instanceof ExecutionAbortedError) return settle(current, 'ABORTED', {});
        if (error instanceof ExecutionTimeoutError) return settle(current, 'TIMED_OUT', { error: 'States.Timeout' });
        const failure = error instanceof ExecutionError ? (error.cause as { name?: string; message?: string } | undefined) : undefined;
        settle(current, 'FAILED', {
          error: failure?.name ?? (error as Error)?.name ?? 'Error',
          cause: failure?.message ?? (error as Error)?.message ?? String(error),
        });
      },
    );
    executions.set(executionArn, execution);
    return { executionArn, startDate: execution.startDate };
  }

  function settle(execution: Execution, status: Status, result: Pick<Execution, 'output' | 'error' | 'cause'>): void {
    if (execution.status !== 'RUNNING') return;
    Object.assign(execution, result, { status, stopDate: Date.now() / 1000 });
    if (status !== 'SUCCEEDED') options.log(`execution ${execution.name} ${status}${result.error ? `: ${result.error} ${result.cause ?? ''}` : ''}`);
    if (!options.onExecutionEnded) return;
    const notice: Promise<void> = options
      .onExecutionEnded(statusChangeEvent(execution))
      .catch((error: unknown) => options.log(`status change of ${execution.name} not handled: ${String(error)}`))
      .finally(() => pendingNotices.delete(notice));
    pendingNotices.add(notice);
  }

  const pendingNotices = new Set<Promise<void>>();

  function describeExecution(request: { executionArn?: string }) {
    const execution = executions.get(request.executionArn ?? '');
    if (!execution) throw apiError('ExecutionDoesNotExist', `Execution Does Not Exist: '${request.executionArn}'`);
    const { abort: _abort, done: _done, ...description } = execution;
    return description;
  }

  function stopExecution(request: { executionArn?: string; error?: string; cause?: string }) {
    const execution = executions.get(request.executionArn ?? '');
    if (!execution) throw apiError('ExecutionDoesNotExist', `Execution Does Not Exist: '${request.executionArn}'`);
    if (execution.status === 'RUNNING') {
      settle(execution, 'ABORTED', { error: request.error, cause: request.cause });
      execution.abort();
    }
    return { stopDate: execution.stopDate };
  }

  const operations: Record<string, (request: any) => unknown> = {
    StartExecution: startExecution,
    DescribeExecution: describeExecution,
    StopExecution: stopExecution,
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const operation = String(req.headers['x-amz-target'] ?? '').replace('AWSStepFunctions.', '');
      const reply = (status: number, answer: unknown, errorType?: string) => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0', ...(errorType ? { 'x-amzn-errortype': errorType } : {}) });
        res.end(JSON.stringify(answer));
      };
      void (async () => {
        const signed = await checkSigV4({ method: req.method ?? 'POST', url: req.url ?? '/', headers: req.headers, body }, access.credentialsOf);
        if ('refusal' in signed) return sendSignatureRefusal(res, signed.refusal);
        try {
          const run = operations[operation];
          if (!run) return reply(400, { __type: 'UnknownOperationException', message: `${operation} is not supported by the local twin` }, 'UnknownOperationException');
          const request = JSON.parse(body.toString('utf8') || '{}') as Record<string, unknown>;
          const denied = stepFunctionsRefusal(access.principal(signed.accessKeyId)!, operation, request, access.resources);
          if (denied) return reply(400, { __type: 'AccessDeniedException', message: denied.message }, 'AccessDeniedException');
          reply(200, run(request));
        } catch (error) {
          const type = (error as { type?: string }).type ?? 'InternalFailure';
          reply(type === 'InternalFailure' ? 500 : 400, { __type: type, message: (error as Error).message }, type);
        }
      })();
    });
  });
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolveListen());
  });

  return {
    endpoint: `http://127.0.0.1:${options.port}`,
    env,
    async stop() {
      for (const execution of executions.values()) if (execution.status === 'RUNNING') stopExecution({ executionArn: execution.executionArn });
      await Promise.allSettled([...executions.values()].map((execution) => execution.done));
      await Promise.allSettled([...pendingNotices]);
      server.closeAllConnections();
      await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
    },
  };
}

/** The event EventBridge delivers for a Step Functions execution's status change. */
function statusChangeEvent(execution: Execution): ExecutionStatusChangeEvent {
  const [, , , region = REGION, account = ACCOUNT] = execution.executionArn.split(':');
  return {
    version: '0',
    id: randomUUID(),
    'detail-type': 'Step Functions Execution Status Change',
    source: 'aws.states',
    account,
    time: new Date((execution.stopDate ?? Date.now() / 1000) * 1000).toISOString(),
    region,
    resources: [execution.executionArn],
    detail: {
      executionArn: execution.executionArn,
      stateMachineArn: execution.stateMachineArn,
      name: execution.name,
      status: execution.status,
      input: execution.input,
    },
  };
}

function apiError(type: string, message: string): Error {
  return Object.assign(new Error(message), { type });
}
