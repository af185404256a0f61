// The workflow definitions on disk: the ASL files both hosts run. CDK puts the file's text into the state machine
// with the task functions' ARNs as substitutions; the local twin substitutes its own ARNs into the same text.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { WorkflowDefinition } from '../../lambdas/workflows.js';

export const WORKFLOWS_DIR = import.meta.dirname;

/** The ASL text of a workflow, exactly as it is in the file. */
export function readWorkflowText(workflow: WorkflowDefinition): string {
  return readFileSync(join(WORKFLOWS_DIR, workflow.asl), 'utf8');
}

/** The text with each `${Placeholder}` replaced by the ARN of the function serving that task. */
export function substituteTasks(text: string, workflow: WorkflowDefinition, functionArn: (placeholder: string) => string): string {
  let result = text;
  for (const placeholder of Object.keys(workflow.tasks)) result = result.replaceAll(`\${${placeholder}}`, functionArn(placeholder));
  const unresolved = /\$\{(\w+)\}/.exec(result);
  if (unresolved) throw new Error(`${workflow.asl}: no task function for the placeholder \${${unresolved[1]}}`);
  return result;
}
