import fc from 'fast-check';

/** The part of JSON Schema (as @fastify/swagger writes it for OpenAPI 3.0) that the generators understand. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  nullable?: boolean;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  minItems?: number;
  maxItems?: number;
}

/** Values worth trying in place of any uuid: ids of rows that exist, so requests reach past "not found". */
export interface KnownIds {
  ids: string[];
}

const clampLength = (n: number | undefined, fallback: number) => Math.min(n ?? fallback, fallback);

function stringArbitrary(s: JsonSchema, known: KnownIds): fc.Arbitrary<string> {
  if (s.format === 'uuid') {
    return known.ids.length > 0
      ? fc.oneof(fc.uuid({ version: 4 }), fc.constantFrom(...known.ids))
      : fc.uuid();
  }
  if (s.format === 'email') return fc.emailAddress().map((e) => e.slice(0, s.maxLength ?? 254));
  if (s.format === 'uri') return fc.webUrl();
  if (s.format === 'date-time') {
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString());
  }
  if (s.pattern) {
    try {
      const re = new RegExp(s.pattern);
      return fc
        .stringMatching(re)
        .filter((v) => v.length >= (s.minLength ?? 0) && v.length <= (s.maxLength ?? Infinity));
    } catch {
      // A pattern JavaScript cannot compile: fall through to plain strings.
    }
  }
  const minLength = s.minLength ?? 0;
  return fc.string({
    minLength,
    maxLength: Math.max(minLength, clampLength(s.maxLength, 40)),
    unit: 'grapheme',
  });
}

function numberBound(s: JsonSchema): { min: number; max: number } {
  let min = Math.max(s.minimum ?? -1_000_000, -1_000_000);
  let max = Math.min(s.maximum ?? 1_000_000, 1_000_000);
  if (typeof s.exclusiveMinimum === 'number') min = Math.max(min, s.exclusiveMinimum + 1);
  if (typeof s.exclusiveMaximum === 'number') max = Math.min(max, s.exclusiveMaximum - 1);
  if (s.exclusiveMinimum === true) min += 1;
  if (s.exclusiveMaximum === true) max -= 1;
  return { min, max: Math.max(min, max) };
}

/** Values the schema accepts (as far as these generators can tell). */
export function validValue(s: JsonSchema, known: KnownIds, depth = 0): fc.Arbitrary<unknown> {
  let arb: fc.Arbitrary<unknown>;
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  const alternatives = s.anyOf ?? s.oneOf;
  if (s.const !== undefined) arb = fc.constant(s.const);
  else if (s.enum) arb = fc.constantFrom(...s.enum);
  else if (alternatives) arb = fc.oneof(...alternatives.map((a) => validValue(a, known, depth + 1)));
  else if (s.allOf) arb = validValue(Object.assign({}, ...s.allOf) as JsonSchema, known, depth);
  else if (type === 'string') arb = stringArbitrary(s, known);
  else if (type === 'integer') arb = fc.integer(numberBound(s));
  else if (type === 'number') arb = fc.double({ ...numberBound(s), noNaN: true, noDefaultInfinity: true });
  else if (type === 'boolean') arb = fc.boolean();
  else if (type === 'null') arb = fc.constant(null);
  else if (type === 'array') {
    const minLength = s.minItems ?? 0;
    arb = fc.array(validValue(s.items ?? {}, known, depth + 1), {
      minLength,
      maxLength: Math.max(minLength, clampLength(s.maxItems, depth > 1 ? 2 : 4)),
    });
  } else if (type === 'object' || s.properties) {
    const props = s.properties ?? {};
    const arbs: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [key, value] of Object.entries(props)) arbs[key] = validValue(value, known, depth + 1);
    arb = fc.record(arbs, { requiredKeys: (s.required ?? []).filter((k) => k in props) });
  } else {
    arb = fc.jsonValue({ maxDepth: 2 });
  }
  return s.nullable ? fc.option(arb, { nil: null }) : arb;
}

/** Something of the wrong kind: each of these breaks most schemas somewhere. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.constant(''),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.string({ minLength: 1000, maxLength: 5000 }),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
  fc.constantFrom(
    '__proto__',
    'constructor',
    '../../etc/passwd',
    "'; drop table users; --",
    '\u0000',
    '😀'.repeat(300),
  ),
);

/** A valid value with one thing broken: a required field dropped, a field of the wrong kind, or an extra one. */
export function invalidValue(s: JsonSchema, known: KnownIds): fc.Arbitrary<unknown> {
  const props = Object.keys(s.properties ?? {});
  const broken =
    props.length === 0
      ? wrongValue
      : fc
          .tuple(validValue(s, known), fc.constantFrom(...props), wrongValue, fc.integer({ min: 0, max: 2 }))
          .map(([value, key, wrong, how]) => {
            const copy = { ...(value as Record<string, unknown>) };
            if (how === 0) delete copy[key];
            else if (how === 1) copy[key] = wrong;
            else Object.assign(copy, JSON.parse('{"__proto__": {"isAdmin": true}, "constructor": {"x": 1}}'));
            return copy;
          });
  return fc.oneof(broken, wrongValue, fc.jsonValue({ maxDepth: 3 }));
}
