// The data lifecycle as deployed: the delete-account workflow, the one function allowed to delete users of the pool
// (and only that pool), the table access its records step gets from ACCOUNT_DELETION, and the abandoned-uploads rule
// on both data buckets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_DELETION, BUCKETS, tableEnvName, type TableName } from '../../lambdas/data/tables.js';
import { WORKFLOWS } from '../../lambdas/workflows.js';
import { readWorkflowText } from '../../lib/workflows/index.js';
import { synthModelLoop, type Synthesized } from './synth.js';

let synth: Synthesized;
beforeAll(() => {
  synth = synthModelLoop({ nag: false });
});
afterAll(() => synth?.dispose());

type Statement = { Action: string | string[]; Resource: unknown };
const resourcesOf = (type: string) => Object.entries(synth.json.Resources).filter(([, resource]) => resource.Type === type);
const getAttTarget = (value: unknown) => (value as { 'Fn::GetAtt'?: [string, string] })['Fn::GetAtt']?.[0];
const statementsOfRole = (roleId: string): Statement[] =>
  resourcesOf('AWS::IAM::Policy')
    .filter(([, policy]) => (policy.Properties?.Roles as { Ref: string }[]).some((role) => role.Ref === roleId))
    .flatMap(([, policy]) => policy.Properties!.PolicyDocument.Statement as Statement[]);

/** The task functions of the delete-account state machine, by placeholder. */
function deletionTasks(): Record<string, { id: string; properties: Record<string, any> }> {
  const machine = resourcesOf('AWS::StepFunctions::StateMachine').find(([, resource]) => resource.Properties?.DefinitionString === readWorkflowText(WORKFLOWS.deleteAccount));
  expect(machine, 'the delete-account state machine').toBeDefined();
  const substitutions = machine![1].Properties!.DefinitionSubstitutions as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(substitutions).map(([placeholder, arn]) => {
      const id = getAttTarget(arn)!;
      return [placeholder, { id, properties: synth.json.Resources[id]!.Properties! }];
    }),
  );
}

describe('account deletion', () => {
  it('runs as a Standard workflow whose steps are retried and repeat while work is left', () => {
    const definition = JSON.parse(readWorkflowText(WORKFLOWS.deleteAccount)) as { States: Record<string, { Type: string; Retry?: unknown[]; Next?: string; Choices?: { Next: string }[] }> };
    expect(Object.keys(deletionTasks()).sort()).toEqual(['AnonymiseLedger', 'DeleteObjects', 'DeleteRecords', 'DeleteSignIn', 'DisconnectShops']);
    for (const [name, state] of Object.entries(definition.States).filter(([, state]) => state.Type === 'Task')) expect(state.Retry, name).toBeDefined();
    for (const step of ['AnonymiseLedger', 'DeleteRecords', 'DeleteObjects']) {
      const choice = definition.States[definition.States[step]!.Next!]!;
      expect(choice.Choices?.[0]?.Next, `${step} runs again while it has more`).toBe(step);
    }
  });

  it('lets only its sign-in step delete users (by name, found by sub), of this user pool only; the routes that make profiles only find users', () => {
    const tasks = deletionTasks();
    const pools = resourcesOf('AWS::Cognito::UserPool');
    expect(pools).toHaveLength(1);
    const poolId = pools[0]![0];
    const cognitoStatements = (fn: { Properties?: Record<string, any> }) =>
      statementsOfRole(getAttTarget(fn.Properties!.Role)!).filter((statement) => [statement.Action].flat().some((action) => action.startsWith('cognito-idp:')));
    const deleters = resourcesOf('AWS::Lambda::Function').filter(([, fn]) => cognitoStatements(fn).some((statement) => [statement.Action].flat().includes('cognito-idp:AdminDeleteUser')));
    expect(deleters.map(([id]) => id)).toEqual([tasks.DeleteSignIn!.id]);
    const statements = statementsOfRole(getAttTarget(tasks.DeleteSignIn!.properties.Role)!).filter((statement) => [statement.Action].flat().some((action) => action.startsWith('cognito-idp:')));
    expect(statements).toEqual([{ Action: ['cognito-idp:AdminDeleteUser', 'cognito-idp:ListUsers'], Effect: 'Allow', Resource: { 'Fn::GetAtt': [poolId, 'Arn'] } }]);
    expect(tasks.DeleteSignIn!.properties.Environment.Variables.USER_POOL_ID).toEqual({ Ref: poolId });
    // Every other function that touches the pool only lists users (a key's first call reads the owner's e-mail).
    const readers = resourcesOf('AWS::Lambda::Function').filter(([id, fn]) => id !== tasks.DeleteSignIn!.id && cognitoStatements(fn).length > 0);
    expect(readers.map(([id]) => id)).toEqual(expect.arrayContaining([expect.stringMatching(/^HttpApiGetProfileFunction/), expect.stringMatching(/^HttpApiGenerateAiImageFunction/)]));
    for (const [id, fn] of readers) expect(cognitoStatements(fn), id).toEqual([{ Action: 'cognito-idp:ListUsers', Effect: 'Allow', Resource: expect.anything() }]);
  });

  it('deletes in every table ACCOUNT_DELETION lists for deletion, and anonymises the ledger', () => {
    const tasks = deletionTasks();
    const deleted = (Object.keys(ACCOUNT_DELETION) as TableName[]).filter((table) => ['partition', 'key', 'index'].includes(ACCOUNT_DELETION[table].action));
    expect(deleted).toEqual(expect.arrayContaining(['profiles', 'clothingItems', 'generations', 'jobs', 'connections', 'imports', 'batches']));
    const variables = Object.keys(tasks.DeleteRecords!.properties.Environment.Variables);
    for (const table of deleted) expect(variables, table).toContain(tableEnvName(table));
    expect(Object.keys(tasks.AnonymiseLedger!.properties.Environment.Variables)).toEqual(expect.arrayContaining([tableEnvName('ledger'), tableEnvName('profiles')]));
    expect(Object.keys(tasks.DeleteObjects!.properties.Environment.Variables)).toEqual(expect.arrayContaining(Object.keys(BUCKETS).map((bucket) => `BUCKET_${bucket.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`)));
  });

  it('removes uploads still tagged pending after a day from both data buckets', () => {
    for (const bucket of Object.values(synth.stack.storage.buckets)) {
      const resource = synth.json.Resources[synth.stack.getLogicalId(bucket.node.defaultChild as never)]!;
      expect(resource.Properties!.LifecycleConfiguration.Rules).toContainEqual({ Id: 'abandoned-uploads', Status: 'Enabled', ExpirationInDays: 1, TagFilters: [{ Key: 'upload', Value: 'pending' }] });
    }
  });
});
