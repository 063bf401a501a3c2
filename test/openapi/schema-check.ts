/**
 * Does a JSON value fit a JSON Schema as our OpenAPI documents write them (zod-to-openapi: objects,
 * strings, numbers, integers, booleans, arrays, enums, `$ref`, `anyOf`/`oneOf`, nullable)? The list of
 * what does not fit, by path; empty when it fits. Enough for the documents' error and view schemas,
 * not a general validator.
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  $ref?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
}

const typeOf = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v;

export function schemaErrors(
  value: unknown,
  schema: JsonSchema,
  resolve: (ref: string) => JsonSchema,
  at = '$',
): string[] {
  if (schema.$ref) return schemaErrors(value, resolve(schema.$ref), resolve, at);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives)
    return alternatives.some((s) => schemaErrors(value, s, resolve, at).length === 0)
      ? []
      : [`${at}: fits none of the alternatives`];
  if (schema.enum && !schema.enum.includes(value))
    return [`${at}: ${JSON.stringify(value)} is not in the enum`];
  const types = schema.type === undefined ? [] : [schema.type].flat();
  const actual = typeOf(value);
  if (types.length && !types.includes(actual) && !(actual === 'integer' && types.includes('number')))
    return [`${at}: ${actual}, not ${types.join(' or ')}`];
  const errors: string[] = [];
  if (actual === 'object') {
    const obj = value as Record<string, unknown>;
    for (const name of schema.required ?? []) if (!(name in obj)) errors.push(`${at}.${name}: missing`);
    for (const [name, sub] of Object.entries(schema.properties ?? {}))
      if (name in obj) errors.push(...schemaErrors(obj[name], sub, resolve, `${at}.${name}`));
  }
  if (actual === 'array' && schema.items)
    (value as unknown[]).forEach((v, i) => {
      errors.push(...schemaErrors(v, schema.items!, resolve, `${at}[${i}]`));
    });
  return errors;
}
