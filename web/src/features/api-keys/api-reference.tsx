// The API reference, rendered from the deployment's /v1/openapi.json (generated from the zod contracts). Loaded only
// when asked for (a lazy component of the API screen), so neither it nor the document weighs on any first load.
import { useQuery } from '@tanstack/react-query';
import { Badge } from '@/components/ui/badge';
import { Spinner } from '@/components/ui/spinner';

interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  enum?: unknown[];
  description?: string;
  anyOf?: Schema[];
}
interface Operation {
  summary?: string;
  parameters?: { name: string; in: string; required?: boolean; schema?: Schema; description?: string }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}
interface OpenApiDocument {
  info: { title: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
}

const typeOf = (schema: Schema | undefined): string => {
  if (!schema) return '';
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(' | ');
  return [schema.type ?? 'any'].flat().join(' | ');
};

function Fields({ schema }: { schema: Schema }) {
  const entries = Object.entries(schema.properties ?? {});
  if (!entries.length) return null;
  return (
    <ul className="mt-1 space-y-0.5 text-sm">
      {entries.map(([name, field]) => (
        <li key={name}>
          <code className="font-mono text-slate-900">{name}</code>
          {schema.required?.includes(name) ? <span className="text-red-700"> *</span> : null}{' '}
          <span className="text-slate-600">{typeOf(field)}</span>
        </li>
      ))}
    </ul>
  );
}

export default function ApiReference({ apiBase }: { apiBase: string }) {
  const url = `${apiBase.replace(/\/+$/, '')}/v1/openapi.json`;
  const document = useQuery({
    queryKey: ['openapi', url],
    queryFn: async () => {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`The API reference answered ${response.status}`);
      return (await response.json()) as OpenApiDocument;
    },
    staleTime: Infinity,
  });
  if (document.isPending) return <Spinner label="Loading the API reference" />;
  if (document.isError) return <p className="text-sm text-red-700">The API reference could not be loaded. Try again later.</p>;
  return (
    <div className="space-y-4" aria-label="API reference">
      <p className="text-sm text-slate-700">
        {document.data.info.description}{' '}
        <a className="font-medium text-brand-700 underline" href={url} target="_blank" rel="noreferrer">
          OpenAPI 3.1 document
        </a>
      </p>
      <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200">
        {Object.entries(document.data.paths).flatMap(([path, operations]) =>
          Object.entries(operations).map(([method, operation]) => {
            const body = operation.requestBody?.content['application/json']?.schema;
            const parameters = operation.parameters ?? [];
            return (
              <li key={`${method} ${path}`} className="p-4">
                <p className="flex flex-wrap items-center gap-2">
                  <Badge tone={method === 'get' ? 'neutral' : 'brand'}>{method.toUpperCase()}</Badge>
                  <code className="font-mono text-sm text-slate-900">{path}</code>
                  <span className="text-sm text-slate-700">{operation.summary}</span>
                </p>
                {parameters.length > 0 && (
                  <ul className="mt-2 space-y-0.5 text-sm">
                    {parameters.map((parameter) => (
                      <li key={`${parameter.in} ${parameter.name}`}>
                        <span className="text-slate-500">{parameter.in}</span> <code className="font-mono text-slate-900">{parameter.name}</code>
                        {parameter.required ? <span className="text-red-700"> *</span> : null} <span className="text-slate-600">{typeOf(parameter.schema)}</span>
                      </li>
                    ))}
                  </ul>
                )}
                {body && (
                  <div className="mt-2">
                    <p className="text-xs font-semibold uppercase text-slate-500">JSON body</p>
                    <Fields schema={body} />
                  </div>
                )}
              </li>
            );
          }),
        )}
      </ul>
    </div>
  );
}
