// Checks a real answer of the public API against the OpenAPI document the API serves: the status must be one the
// document lists for that operation, and the body must validate against that response's JSON Schema (Ajv, draft
// 2020-12, the dialect the document declares). This is what an SDK generated from the document relies on.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

interface Operation {
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, unknown>;
}

export function answerChecker(document: OpenApiDocument): (method: string, path: string, status: number, body: unknown) => string[] {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  const compiled = new Map<string, ValidateFunction>();
  return (method, path, status, body) => {
    const operation = document.paths[path]?.[method.toLowerCase()];
    if (!operation) return [`${method} ${path} is not in the document`];
    const response = operation.responses[String(status)];
    if (!response) return [`${method} ${path} answered ${status}, which the document does not list (it lists ${Object.keys(operation.responses).join(', ')})`];
    const schema = response.content?.['application/json']?.schema;
    if (!schema) return [];
    const id = `${method} ${path} ${status}`;
    // The schema is compiled inside the document's components, so `#/components/schemas/…` references resolve.
    const validate = compiled.get(id) ?? ajv.compile({ ...schema, components: document.components });
    compiled.set(id, validate);
    return validate(body) ? [] : (validate.errors ?? []).map((error) => `${id}: ${error.instancePath || '(body)'} ${error.message} ${JSON.stringify(error.params)}`);
  };
}
