import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OpenAPIObject, OperationObject, ResponseObject } from 'openapi3-ts/oas30';
import { OPENAPI_PATH } from '../../server/app.js';
import { SECURITY_HEADERS } from '../../contract/openapi.js';

/** HTTP's own headers, and CORS (answered per origin, documented with the public loyalty group). */
const TRANSPORT =
  /^(content-type|content-length|date|connection|keep-alive|transfer-encoding|vary|access-control-.*)$/;
const EVERYWHERE = new Set(SECURITY_HEADERS.map((h) => h.toLowerCase()));

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

interface Matcher {
  method: string;
  pattern: RegExp;
  operation: OperationObject;
  template: string;
}

let matchers: Matcher[] | undefined;

function load(): Matcher[] {
  const doc = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as OpenAPIObject;
  return Object.entries(doc.paths ?? {}).flatMap(([template, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({
      method: method.toUpperCase(),
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
      operation: item[method] as OperationObject,
      template,
    })),
  );
}

/**
 * The headers of a response that openapi.json does not list for its operation and status (nothing
 * for paths outside the document: pages, docs, unknown routes).
 */
export function undocumentedHeaders(req: IncomingMessage, res: ServerResponse): string | undefined {
  matchers ??= load();
  const path = (req.url ?? '').split('?')[0] ?? '';
  const found = matchers.find((m) => m.method === req.method && m.pattern.test(path));
  if (!found) return undefined;
  const response = found.operation.responses?.[String(res.statusCode)] as ResponseObject | undefined;
  // An undocumented status is the response validator's finding.
  if (!response) return undefined;
  const documented = new Set(Object.keys(response.headers ?? {}).map((h) => h.toLowerCase()));
  const missing = res
    .getHeaderNames()
    .filter((h) => !TRANSPORT.test(h) && !EVERYWHERE.has(h) && !documented.has(h));
  return missing.length
    ? `${req.method} ${found.template} ${res.statusCode}: headers not in openapi.json: ${missing.join(', ')}`
    : undefined;
}
