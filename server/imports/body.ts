import busboy from 'busboy';
import type { NextFunction, Request, Response } from 'express';
import { IMPORT_MAX_BYTES } from '../../contract/imports/index.js';
import { ApiError } from '../platform/errors.js';
import { refuseFile } from './csv.js';

/* The request body of an upload (a CSV import, a bank statement): the file as the body or as the `file` part of a form. */

interface Upload {
  /** Content types taken as the file itself. */
  types: string[];
  /** Form fields kept beside the file (a statement's options); any other is ignored. */
  fields: readonly string[];
  /** What the file is, for the refusal of a form without one: "the CSV file". */
  what: string;
}

/**
 * Reads an upload before the JSON rule: a body of one of `types` as is, or the `file` part of a form
 * with its `fields`, into `req.body`. Only for a request with a valid credential (authentication
 * answers the others, before any byte is read); a body of another type is left for the operation to
 * refuse once its permission is checked.
 */
export function uploadBody(upload: Upload) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    if (req.method !== 'POST') return next();
    const done = (body?: { file: Buffer; fields: Record<string, string> }) => {
      req.rawBody = body?.file ?? Buffer.alloc(0);
      req.body = body ? { ...body.fields, file: body.file } : {};
      next();
    };
    const { bearer, apiKey } = req.credentials;
    if (!bearer && !apiKey) return done();
    const tooLarge = () =>
      new ApiError('PAYLOAD_TOO_LARGE', `The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MiB`);
    if (req.is(upload.types)) {
      readAll(req, tooLarge).then((file) => done({ file, fields: {} }), next);
      return;
    }
    if (req.is('multipart/form-data')) {
      readForm(req, tooLarge, upload).then(done, next);
      return;
    }
    done();
  };
}

/** A CSV import's body: `text/csv` or a form (docs/decisions.md D160). */
export const importBody = uploadBody({
  types: ['text/csv', 'application/csv', 'text/plain'],
  fields: [],
  what: 'the CSV file',
});

function readAll(req: Request, tooLarge: () => ApiError): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > IMPORT_MAX_BYTES) {
        req.removeAllListeners('data');
        req.resume();
        reject(tooLarge());
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function readForm(
  req: Request,
  tooLarge: () => ApiError,
  upload: Upload,
): Promise<{ file: Buffer; fields: Record<string, string> }> {
  return new Promise((resolve, reject) => {
    let form: busboy.Busboy;
    try {
      form = busboy({
        headers: req.headers,
        limits: { fileSize: IMPORT_MAX_BYTES, fieldSize: IMPORT_MAX_BYTES, files: 2, fields: 20 },
      });
    } catch {
      reject(new ApiError('BAD_REQUEST', 'Malformed multipart/form-data (no boundary)'));
      return;
    }
    let file: Buffer | undefined;
    const fields: Record<string, string> = {};
    let failure: ApiError | undefined;
    let parts = 0;
    // Two `file` parts: which one is the import is anyone's guess, so neither is.
    const another = (name: string) => {
      if (name === 'file' && ++parts > 1) {
        failure ??= refuseFile('The form has more than one `file` part: send one file per import');
      }
    };
    form.on('filesLimit', () => {
      failure ??= refuseFile('The form has more than one `file` part: send one file per import');
    });
    form.on('file', (name, stream) => {
      another(name);
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        failure = tooLarge();
      });
      stream.on('end', () => {
        if (name === 'file') file = Buffer.concat(chunks);
      });
    });
    // A form whose `file` is plain text rather than a file part (FormData given a string).
    form.on('field', (name, value, info) => {
      if (upload.fields.includes(name)) fields[name] = value;
      if (name !== 'file') return;
      another(name);
      if (info.valueTruncated) failure = tooLarge();
      else file = Buffer.from(value, 'utf8');
    });
    form.on('error', () => reject(new ApiError('BAD_REQUEST', 'Malformed multipart/form-data')));
    form.on('close', () => {
      if (failure) reject(failure);
      else if (!file) reject(refuseFile(`Expected ${upload.what} in the \`file\` field of the form`));
      else resolve({ file, fields });
    });
    req.pipe(form);
  });
}
