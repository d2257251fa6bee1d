import { readFileSync } from 'node:fs';
import type { RequestHandler } from 'express';
import ajvDraft4 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import { OPENAPI_PATH } from '../../server/app.js';

/**
 * An independent check of every JSON response against the published openapi.json, the suite's
 * oracle: Ajv reads the document once (draft-04 schemas, as OpenAPI 3.0 writes them) and compiles
 * a validator for an operation's status the first time the suite sees it, by reference into that
 * one document, so the component schemas it shares with others are compiled once per process.
 *
 * What fails: a body that does not match the schema of its status (or of `4XX`, `default`), a
 * status the operation does not document, a body where the document says there is none. What is
 * not checked here: answers that are not JSON (CSV files, PDFs), requests to paths the document does
 * not name (the dashboard, health checks); headers are checked by documented-headers.ts.
 */

type Document = {
  paths: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, unknown> }> }>
  >;
};

interface Operation {
  /** The document's path template, as its JSON pointer names it. */
  template: string;
  method: string;
  pattern: RegExp;
  /** Literal segments first: `/v1/invoices/export` is preferred to `/v1/invoices/{id}`. */
  rank: number[];
  responses: Record<string, { content?: Record<string, unknown> }>;
}

// CommonJS packages whose `exports.default` is the export.
const AjvDraft4 = ajvDraft4.default;
const addFormats = ajvFormats.default;
type AjvDraft4 = InstanceType<typeof AjvDraft4>;

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

const pointer = (...parts: string[]) =>
  parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

class OpenApiResponses {
  private readonly ajv: AjvDraft4;
  private readonly operations: Operation[] = [];
  private readonly validators = new Map<string, ValidateFunction | null>();

  constructor(path: URL) {
    const document = JSON.parse(readFileSync(path, 'utf8')) as Document;
    // The options express-openapi-validator gave its response validation, which these replace.
    this.ajv = new AjvDraft4({
      strict: false,
      strictNumbers: true,
      strictTuples: true,
      allowUnionTypes: false,
      validateSchema: false,
      allErrors: true,
      useDefaults: false,
      coerceTypes: false,
      removeAdditional: false,
    });
    addFormats(this.ajv, { mode: 'fast' });
    for (const format of ['binary', 'password', 'ofx']) this.ajv.addFormat(format, true);
    this.ajv.addSchema(withoutExamples(document) as object, 'openapi.json');
    for (const [template, methods] of Object.entries(document.paths)) {
      const segments = template.split('/').slice(1);
      const pattern = new RegExp(
        '^/' +
          segments
            .map((s) => (/^\{.+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
            .join('/') +
          '/?$',
      );
      const rank = segments.map((s) => (/^\{.+\}$/.test(s) ? 1 : 0));
      for (const [method, operation] of Object.entries(methods)) {
        if (!HTTP_METHODS.has(method) || !operation.responses) continue;
        this.operations.push({ template, method, pattern, rank, responses: operation.responses });
      }
    }
  }

  /** The operation a request names, if the document has one. */
  find(method: string, path: string): Operation | undefined {
    let best: Operation | undefined;
    for (const op of this.operations) {
      if (op.method !== method || !op.pattern.test(path)) continue;
      if (!best || compareRank(op.rank, best.rank) < 0) best = op;
    }
    return best;
  }

  /** What is wrong with `body` answered with `status` to `op`, or undefined when nothing is. */
  problem(op: Operation, status: number, body: unknown): string | undefined {
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in op.responses);
    if (key === undefined) return `no schema defined for status code '${status}' in the openapi spec`;
    const content = op.responses[key]!.content;
    if (!content || Object.keys(content).length === 0) {
      return body === undefined ? undefined : 'response should NOT have a body';
    }
    if (!('application/json' in content)) return undefined;
    if (body === undefined || body === null) return 'response body required.';
    const validate = this.validator(op, key);
    if (!validate || validate(body)) return undefined;
    return this.ajv.errorsText(validate.errors, { dataVar: '/response' });
  }

  private validator(op: Operation, key: string): ValidateFunction | null {
    const id = `${op.method} ${op.template} ${key}`;
    let validate = this.validators.get(id);
    if (validate === undefined) {
      // A status without a schema is recorded as null: looked up once.
      const schema = (op.responses[key]!.content!['application/json'] as { schema?: unknown }).schema;
      validate = schema
        ? this.ajv.compile({
            $ref: `openapi.json#/${pointer('paths', op.template, op.method, 'responses', key, 'content', 'application/json', 'schema')}`,
          })
        : null;
      this.validators.set(id, validate);
    }
    return validate ?? null;
  }
}

/**
 * The document without its examples, which validate nothing: Ajv reads every object in the document
 * it is given, and an example's `id` field would read as a draft-04 schema id. A property named
 * `example` stays.
 */
function withoutExamples(value: unknown, inProperties = false): unknown {
  if (Array.isArray(value)) return value.map((v) => withoutExamples(v));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (!inProperties && (key === 'example' || key === 'examples')) continue;
    out[key] = withoutExamples(v, !inProperties && key === 'properties');
  }
  return out;
}

function compareRank(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

let shared: OpenApiResponses | undefined;

/**
 * Middleware that checks each JSON body the app answers against openapi.json, as the client
 * receives it (serialised), and adds what is wrong to `violations` rather than failing the
 * request. One reader of the document per process, shared by every server it starts.
 */
export function responseValidator(violations: string[]): RequestHandler {
  shared ??= new OpenApiResponses(OPENAPI_PATH);
  const responses = shared;
  return (req, res, next) => {
    const op = responses.find(req.method.toLowerCase(), req.path);
    if (op) {
      const json = res.json.bind(res);
      res.json = (body: unknown) => {
        const sent = body === undefined ? undefined : (JSON.parse(JSON.stringify(body)) as unknown);
        const problem = responses.problem(op, res.statusCode, sent);
        if (problem) {
          violations.push(
            `${req.method} ${req.originalUrl}: ${problem} in ${JSON.stringify(body)?.slice(0, 300)}`,
          );
        }
        return json(body);
      };
    }
    next();
  };
}
