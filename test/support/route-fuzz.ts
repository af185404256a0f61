// Arbitraries for fuzzing the HTTP API from its zod contracts (test/integration/route-fuzz.test.ts): requests that
// follow a route's contract (from z.toJSONSchema of the schema its handler declares) and hostile ones built from
// them — a field of the wrong type, huge or odd unicode strings, negative and enormous numbers, extra and missing
// fields, bodies that are not objects or not JSON, odd path ids and Idempotency-Keys.
import fc from 'fast-check';
import * as z from 'zod';

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  default?: unknown;
};

export interface FuzzRequest {
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** A JSON value, or a raw text body (`rawBody`) that need not be JSON. */
  body?: unknown;
  rawBody?: string;
  idempotencyKey?: string;
  /** What the case was meant to probe (for the report and the regression file). */
  label: string;
}

const SHORT = 24;

/** Strings as people and attackers type them: plain, unicode of every plane, control characters, markup, paths. */
export const oddString = (): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ maxLength: SHORT }),
    fc.string({ unit: 'grapheme', maxLength: SHORT }),
    fc.string({ unit: 'binary', maxLength: SHORT }),
    fc.constantFrom('', ' ', '\u0000', '../../etc/passwd', '%00', '<script>alert(1)</script>', "' OR 1=1 --", '${jndi:x}', '__proto__', 'constructor', '\u202e\ufeff', '🧥👗'.repeat(40), 'a'.repeat(5000)),
  );

const hugeString = fc.constantFrom('x'.repeat(70_000), 'é'.repeat(40_000), '\u{1F600}'.repeat(20_000));
const oddNumber = fc.oneof(
  fc.constantFrom(-1, 0, -0, 1.5, -99999999, 2 ** 53, 1e308, -1e308, Number.MIN_VALUE),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Any JSON value, as a hostile replacement for a field. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  oddString(),
  hugeString,
  oddNumber,
  fc.constantFrom(null, true, false, [], {}, [null], { $gt: '' }, { __proto__: { admin: true } }),
  fc.jsonValue({ maxDepth: 3 }),
);

function fromJsonSchema(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices) return fc.oneof(...choices.map((choice) => fromJsonSchema(choice, depth)));
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.max(schema.minLength ?? 0, Math.min(schema.maxLength ?? SHORT, SHORT)) });
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? -1000, -(2 ** 31)), max: Math.min(schema.maximum ?? 1000, 2 ** 31) });
    case 'number':
      return fc.double({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schema.items && depth < 4 ? fromJsonSchema(schema.items, depth + 1) : fc.jsonValue({ maxDepth: 1 }), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3)),
      });
    case 'object': {
      const properties = schema.properties ?? {};
      const model = Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, fromJsonSchema(value, depth + 1)]));
      const required = (schema.required ?? []).filter((key) => key in properties);
      return fc.record(model, { requiredKeys: required });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Values that follow the schema as its JSON Schema says (refinements aside). */
export function validish(schema: z.ZodType): fc.Arbitrary<unknown> {
  return fromJsonSchema(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema);
}

/** A contract-following object broken in one way. */
export function hostile(schema: z.ZodType | undefined): fc.Arbitrary<{ value: unknown; label: string } | { raw: string; label: string }> {
  const base = schema ? validish(schema) : fc.constant({});
  const asObject = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? { ...(value as object) } : {});
  return fc.oneof(
    // One field replaced by a value of another type or an extreme one.
    fc.tuple(base, fc.nat(), hostileValue).map(([value, index, bad]) => {
      const object = asObject(value);
      const keys = Object.keys(object);
      const key = keys.length ? keys[index % keys.length]! : 'field';
      return { value: { ...object, [key]: bad }, label: `field ${key} hostile` };
    }),
    // A field missing.
    fc.tuple(base, fc.nat()).map(([value, index]) => {
      const object = asObject(value);
      const keys = Object.keys(object);
      if (keys.length) delete object[keys[index % keys.length]!];
      return { value: object, label: 'a field missing' };
    }),
    // Extra fields, including ones that try to set what only the server decides.
    fc.tuple(base, fc.dictionary(oddString(), hostileValue, { maxKeys: 3 }), fc.constantFrom('user_id', 'current_credits', 'status', 'credits_used', 'id', '__proto__')).map(
      ([value, extra, owned]) => ({ value: { ...asObject(value), ...extra, [owned]: 'x' }, label: 'extra fields' }),
    ),
    // Not an object at all, or not JSON.
    fc.oneof(fc.jsonValue({ maxDepth: 2 }), hugeString).map((value) => ({ value, label: 'not an object' })),
    fc.constantFrom('{', '{"a":', 'null', '[]', '\u0000', 'not json', '{"credits": 1e999}', '{"__proto__": {"x": 1}}').map((raw) => ({ raw, label: 'raw body' })),
  );
}

/** Query strings: the contract's values as strings, or odd strings in its keys and others. */
export function queryArbitrary(schema: z.ZodType | undefined): fc.Arbitrary<Record<string, string>> {
  const keys = schema ? Object.keys((z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema).properties ?? {}) : [];
  const contract = schema ? validish(schema).map((value) => Object.fromEntries(Object.entries(value as object).map(([key, v]) => [key, String(v)]))) : fc.constant({});
  const odd = fc.dictionary(keys.length ? fc.oneof(fc.constantFrom(...keys), oddString()) : oddString(), oddString(), { maxKeys: 3 });
  return fc.oneof(contract, odd);
}

/** A path id: a plausible one, or anything at all. */
export const pathId: fc.Arbitrary<string> = fc.oneof(
  fc.uuid(),
  fc.constantFrom('sample', 'job-1', 'gen-1', '0mwtu62845ef1879510380516', '..', '.', '%2e%2e', 'a'.repeat(2000)),
  oddString().filter((value) => value.length > 0),
).filter((value) => {
  // A path can only carry well-formed text (encodeURIComponent refuses a lone surrogate).
  try {
    encodeURIComponent(value);
    return true;
  } catch {
    return false;
  }
});

export const idempotencyKey: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 3, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: oddString().filter((value) => /^[ -~]*$/.test(value)) },
);
