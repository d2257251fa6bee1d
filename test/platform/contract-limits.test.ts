import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Every string a client can send has a maximum length and every array a maximum size, so no input
 * is unbounded. Walked over the published document, which is what clients see.
 */
type Schema = Record<string, any>;
const doc = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8'));

function resolve(schema: Schema): Schema {
  if (schema.$ref) return doc.components.schemas[schema.$ref.split('/').pop()];
  return schema;
}

function unbounded(schema: Schema, path: string, out: string[]): void {
  const s = resolve(schema);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const)
    s[key]?.forEach((sub: Schema, i: number) => unbounded(sub, `${path}.${key}${i}`, out));
  if (s.type === 'string' && s.maxLength === undefined && s.enum === undefined) out.push(path);
  if (s.type === 'array') {
    if (s.maxItems === undefined) out.push(path);
    if (s.items) unbounded(s.items, `${path}[]`, out);
  }
  for (const [name, prop] of Object.entries<Schema>(s.properties ?? {}))
    unbounded(prop, `${path}.${name}`, out);
  if (s.additionalProperties && typeof s.additionalProperties === 'object')
    unbounded(s.additionalProperties, `${path}.*`, out);
}

describe('input limits in the contract', () => {
  const inputs: [string, Schema][] = [];
  for (const [path, operations] of Object.entries<Schema>(doc.paths)) {
    for (const [method, op] of Object.entries<Schema>(operations)) {
      const body = op.requestBody?.content?.['application/json']?.schema;
      if (body) inputs.push([`${method.toUpperCase()} ${path} body`, body]);
      for (const param of op.parameters ?? [])
        inputs.push([`${method.toUpperCase()} ${path} ${param.in} ${param.name}`, param.schema]);
    }
  }

  it('finds the inputs to check', () => {
    expect(inputs.length).toBeGreaterThan(20);
    expect(inputs.some(([where]) => where === 'POST /v1/invoices body')).toBe(true);
  });

  it('bounds every string and array a client can send', () => {
    const problems: string[] = [];
    for (const [where, schema] of inputs) unbounded(schema, where, problems);
    expect(problems).toEqual([]);
  });

  /**
   * Bodies another service writes, taken as they come: a payment provider's events gain fields
   * over time, and its signature over the raw body, not the body's shape, is what is checked.
   */
  const SENT_BY_OTHERS = ['POST /v1/payments/webhooks/{provider}/{business_id} body'];

  it('refuses unknown fields in every request body', () => {
    const open = inputs
      .filter(([where]) => where.endsWith(' body') && !SENT_BY_OTHERS.includes(where))
      .filter(([, schema]) => resolve(schema).additionalProperties !== false)
      .map(([where]) => where);
    expect(open).toEqual([]);
  });
});
