// The functions the stack deploys, as the constructs declare them to the function factory: one per route
// (lib/constructs/http-api.ts), the API-key authorizer, one per workflow task (lib/constructs/workflows.ts, so the
// generation workflow's Process and the batch's MakePhoto are two functions of one handler, each with its own bundle
// and grants), workflow-ended, the reconciler and the realtime functions (the fan-out is also the webhook events' emitter). The twin runs each of
// them as that function: its bundle (bundles.ts), its grants and environment (grants.ts), its timeout and memory
// (lib/function-settings.ts). test/infra/twin-bundles.test.ts holds this list to what the synthesized stack creates.
import type { FunctionSpec } from '../constructs/function-factory.js';
import type { TableName } from '../../lambdas/data/tables.js';
import { STREAMED_TABLES } from '../../lambdas/realtime/messages.js';
import { REALTIME_FUNCTIONS } from '../../lambdas/realtime-functions.js';
import { API_KEY_AUTHORIZER, ROUTES } from '../../lambdas/routes.js';
import { routeFunctionSpec } from '../function-settings.js';
import { MODEL_CHECK_FUNCTION, RECONCILER_FUNCTION, WORKFLOW_ENDED_FUNCTION, WORKFLOWS, type WorkflowName } from '../../lambdas/workflows.js';

export type DeployedFunctionKind = 'route' | 'task' | 'other';

export interface DeployedFunction {
  /** The twin's name of the function, unique: a task's `<workflow>-<state>`, every other function's handler. */
  name: string;
  kind: DeployedFunctionKind;
  /** What the construct passes the function factory (less the `environment` values only a deployed stack has). */
  spec: FunctionSpec;
  /** Tables whose names its construct puts in its environment without any access (the stream consumers tell a record's table by them). */
  tableNames?: readonly TableName[];
  /** It may post to the WebSocket API's connections (execute-api:ManageConnections on POST @connections, lib/constructs/realtime.ts). */
  postsToConnections?: boolean;
}

/** A workflow task's function name, e.g. batch-MakePhoto. */
export const taskFunctionName = (workflow: string, state: string) => `${workflow}-${state}`;

export function deployedFunctions(): DeployedFunction[] {
  const routes = ROUTES.map((route): DeployedFunction => ({ name: route.handler, kind: 'route', spec: routeFunctionSpec(route) }));
  const tasks = (Object.entries(WORKFLOWS) as [WorkflowName, (typeof WORKFLOWS)[WorkflowName]][]).flatMap(([workflow, definition]) =>
    Object.entries(definition.tasks as Record<string, FunctionSpec>).map(([state, task]): DeployedFunction => ({ name: taskFunctionName(workflow, state), kind: 'task', spec: task })),
  );
  const others: DeployedFunction[] = [
    { name: API_KEY_AUTHORIZER.handler, kind: 'other', spec: { handler: API_KEY_AUTHORIZER.handler, tables: API_KEY_AUTHORIZER.tables } },
    { name: WORKFLOW_ENDED_FUNCTION.handler, kind: 'other', spec: WORKFLOW_ENDED_FUNCTION },
    { name: RECONCILER_FUNCTION.handler, kind: 'other', spec: RECONCILER_FUNCTION },
    // Deployed on a stage whose ports use a cloud provider (the committed one); on the twin it runs when invoked
    // (`npm run invoke model-check`), and with the local engine it has no model to ask about.
    { name: MODEL_CHECK_FUNCTION.handler, kind: 'other', spec: MODEL_CHECK_FUNCTION },
    ...Object.values(REALTIME_FUNCTIONS).map(
      (fn): DeployedFunction => ({
        name: fn.handler,
        kind: 'other',
        spec: { ...fn },
        ...(fn.handler === REALTIME_FUNCTIONS.fanOut.handler ? { tableNames: STREAMED_TABLES, postsToConnections: true } : {}),
      }),
    ),
  ];
  return [...routes, ...tasks, ...others];
}

/** The deployed function by its twin name; throws naming the known ones. */
export function deployedFunction(name: string, functions: readonly DeployedFunction[] = deployedFunctions()): DeployedFunction {
  const found = functions.find((fn) => fn.name === name);
  if (!found) throw new Error(`No deployed function '${name}'. Known: ${functions.map((fn) => fn.name).join(', ')}`);
  return found;
}
