// Every function the project deploys, as the developer tools see them (`npm run invoke`, `npm run event`): the routes
// of the route table, the tasks of the workflows, workflow-ended, the reconciler and the realtime functions. Each has a
// contract and a sample event that passes it:
//   routes           route-samples.ts: the contract the handler is built from (lambdas/contracts/<feature>.ts) and its
//                    sample, as the payload v2 event the local gateway builds;
//   workflow tasks   task-samples.ts: the input schema the task checks at run time (lambdas/contracts/workflows.ts),
//                    and an input worked out from the workflow's ASL;
//   the others       realtime-samples.ts: a schema of the event the handler's type declares.
import { TASK_INPUTS } from '../../lambdas/contracts/workflows.js';
import { REALTIME_FUNCTIONS, type RealtimeHandler } from '../../lambdas/realtime-functions.js';
import { ROUTES, type RouteDefinition } from '../../lambdas/routes.js';
import { RECONCILER_FUNCTION, WORKFLOW_ENDED_FUNCTION, WORKFLOWS, type WorkflowName } from '../../lambdas/workflows.js';
import { OTHER_CONTRACTS, sampleOtherEvent, type OtherHandler } from './realtime-samples.js';
import { routeEventProblems, sampleRouteEvent, schemaProblems } from './route-samples.js';
import { sampleTaskInput } from './task-samples.js';

export type FunctionKind = 'route' | 'task' | 'realtime';

export interface KnownFunction {
  /** The handler module's name (lambdas/handlers/<name>.ts): what the tools are called with. */
  name: string;
  kind: FunctionKind;
  route?: RouteDefinition;
  /** A task's workflow and state (the placeholder in the ASL). */
  workflow?: WorkflowName;
  state?: string;
}

const REALTIME_HANDLERS: RealtimeHandler[] = Object.values(REALTIME_FUNCTIONS).map((fn) => fn.handler);

export function knownFunctions(): KnownFunction[] {
  const routes = ROUTES.map((route): KnownFunction => ({ name: route.handler, kind: 'route', route }));
  const tasks = (Object.entries(WORKFLOWS) as [WorkflowName, (typeof WORKFLOWS)[WorkflowName]][]).flatMap(([workflow, definition]) =>
    Object.entries(definition.tasks).map(([state, task]): KnownFunction => ({ name: task.handler, kind: 'task', workflow, state })),
  );
  const others = [WORKFLOW_ENDED_FUNCTION.handler, RECONCILER_FUNCTION.handler, ...REALTIME_HANDLERS].map((name): KnownFunction => ({ name, kind: 'realtime' }));
  return [...routes, ...tasks, ...others];
}

export function findFunction(name: string): KnownFunction | undefined {
  return knownFunctions().find((fn) => fn.name === name);
}

/** What the tools answer for a name they don't know: every name they do, by kind. */
export function unknownFunctionMessage(name: string): string {
  const functions = knownFunctions();
  const list = (kind: FunctionKind) =>
    functions
      .filter((fn) => fn.kind === kind)
      .map((fn) => `    ${fn.name.padEnd(30)}${fn.route ? `${fn.route.method} ${fn.route.path}` : fn.workflow ? `${fn.workflow} workflow, state ${fn.state}` : ''}`)
      .join('\n');
  return [
    `Unknown function '${name}'. Known functions:`,
    '  routes (HTTP API):',
    list('route'),
    '  workflow tasks:',
    list('task'),
    '  workflow-ended and realtime:',
    list('realtime'),
  ].join('\n');
}

/** A valid sample event for a function (throws for an unknown name). `env` names tables and workflows when a twin runs. */
export async function sampleEvent(name: string, env: NodeJS.ProcessEnv = {}): Promise<unknown> {
  const fn = findFunction(name);
  if (!fn) throw new Error(unknownFunctionMessage(name));
  if (fn.kind === 'route') return sampleRouteEvent(fn.route!, env);
  if (fn.kind === 'task') return sampleTaskInput(fn.workflow!, fn.state!);
  return sampleOtherEvent(name as OtherHandler, env);
}

/** Checks an event against the function's contract; returns the problems (none: it passes). */
export function contractProblems(name: string, event: unknown): string[] {
  const fn = findFunction(name);
  if (!fn) return [unknownFunctionMessage(name)];
  if (fn.kind === 'task') {
    // Each task's input schema is the one its handler checks at run time.
    const schema = (TASK_INPUTS as Record<string, Parameters<typeof schemaProblems>[0]>)[name];
    return schema ? schemaProblems(schema, event, 'input') : [`${name}: no input schema in lambdas/contracts/workflows.ts TASK_INPUTS`];
  }
  if (fn.kind === 'realtime') return schemaProblems(OTHER_CONTRACTS[name as OtherHandler], event, 'event');
  return routeEventProblems(fn.route!, event);
}
