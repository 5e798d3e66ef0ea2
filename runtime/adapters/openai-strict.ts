/** A JSON Schema node. */
type Schema = Record<string, unknown>;

/** Keywords OpenAI's strict mode accepts; the rest are dropped. */
const KEPT = new Set([
  'type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'const', 'anyOf', 'description', 'title',
  '$ref', '$defs', 'definitions', 'pattern', 'format', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum',
  'multipleOf', 'minItems', 'maxItems',
]);

/**
 * A schema rewritten the way OpenAI's strict mode requires: every property required, the optional ones nullable,
 * `additionalProperties: false` on every object, `oneOf` as `anyOf`, unsupported keywords dropped. `undefined` when
 * strict mode cannot express the schema (a free-form map, a node with no type), so the tool is sent non-strict.
 */
export function toStrictSchema(schema: Schema): Schema | undefined {
  if (schema.type !== 'object') return undefined;
  try {
    return convert(schema);
  } catch (error) {
    if (error instanceof Inexpressible) return undefined;
    throw error;
  }
}

class Inexpressible extends Error {}

function convert(node: Schema): Schema {
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) if (KEPT.has(key)) out[key] = value;
  const alternatives = node.anyOf ?? node.oneOf;
  if (Array.isArray(alternatives)) {
    out.anyOf = alternatives.map((alternative) => convert(alternative as Schema));
    return out;
  }
  if (typeof node.$ref === 'string') return out;
  if (node.type === undefined && node.enum === undefined && node.const === undefined) throw new Inexpressible();
  for (const defs of ['$defs', 'definitions'] as const) {
    const table = node[defs];
    if (table !== undefined) out[defs] = Object.fromEntries(Object.entries(table as Record<string, Schema>).map(([name, def]) => [name, convert(def)]));
  }
  if (isType(node, 'object')) {
    const extra = node.additionalProperties;
    // A map from any key to values (`z.record`) has no strict form: strict objects list their keys.
    if (extra !== undefined && extra !== false && node.properties === undefined) throw new Inexpressible();
    const properties = (node.properties ?? {}) as Record<string, Schema>;
    const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([name, property]) => [name, required.has(name) ? convert(property) : nullable(convert(property))]),
    );
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  if (isType(node, 'array') && node.items !== undefined) {
    if (typeof node.items !== 'object' || node.items === null || Array.isArray(node.items)) throw new Inexpressible();
    out.items = convert(node.items as Schema);
  }
  return out;
}

function isType(node: Schema, type: string): boolean {
  return node.type === type || (Array.isArray(node.type) && node.type.includes(type));
}

function nullable(node: Schema): Schema {
  if (acceptsNull(node)) return node;
  if (typeof node.type === 'string' && node.enum === undefined && node.const === undefined) return { ...node, type: [node.type, 'null'] };
  if (Array.isArray(node.anyOf)) return { ...node, anyOf: [...node.anyOf, { type: 'null' }] };
  const { description, ...rest } = node;
  return description === undefined ? { anyOf: [rest, { type: 'null' }] } : { description, anyOf: [rest, { type: 'null' }] };
}

/** Whether a schema node accepts `null` as it stands. */
function acceptsNull(node: Schema): boolean {
  if (node.type === 'null' || (Array.isArray(node.type) && node.type.includes('null'))) return true;
  if (Array.isArray(node.enum) && node.enum.includes(null)) return true;
  if (node.const === null) return true;
  const alternatives = node.anyOf ?? node.oneOf;
  return Array.isArray(alternatives) && alternatives.some((alternative) => acceptsNull(alternative as Schema));
}

/**
 * Arguments a strict-mode model sent, with the nulls it had to send for absent optional properties removed: a
 * property whose original schema does not accept `null` and that is `null` is dropped, in nested objects and arrays too.
 */
export function dropStrictNulls(value: unknown, original: Schema): unknown {
  if (Array.isArray(value)) {
    const items = original.items;
    return typeof items === 'object' && items !== null && !Array.isArray(items) ? value.map((item) => dropStrictNulls(item, items as Schema)) : value;
  }
  if (typeof value !== 'object' || value === null) return value;
  const properties = (original.properties ?? {}) as Record<string, Schema>;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    const property = properties[key];
    if (property === undefined) {
      out[key] = item;
      continue;
    }
    if (item === null && !acceptsNull(property)) continue;
    out[key] = dropStrictNulls(item, property);
  }
  return out;
}
