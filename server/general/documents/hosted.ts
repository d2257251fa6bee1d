import { publicBaseUrl, type Config } from '../../config.js';
import type { SecretBox } from '../../platform/secret-box.js';

/**
 * The hosted pages of documents (docs/decisions.md D151, D262): `/i/<token>` for an invoice, `/q/<token>` for a
 * quote, `/c/<token>` for a credit note. The token names the business and the document and is signed (HMAC-SHA256, 128 bits), so it
 * cannot be guessed or altered: anything else answers 404. It does not expire; a document that is
 * deleted, or still a draft, has no page.
 */

export type DocumentKind = 'invoice' | 'quote' | 'credit_note';

export interface HostedDocument {
  kind: DocumentKind;
  businessId: string;
  id: string;
}

const PREFIX: Record<DocumentKind, string> = { invoice: 'i', quote: 'q', credit_note: 'c' };

/** The first segment of the document's page path: `i`, `q` or `c`. */
export const hostedPrefix = (kind: DocumentKind): string => PREFIX[kind];

const signed = (payload: string) => `document:${payload}`;

export function hostedToken(secrets: SecretBox, doc: HostedDocument): string {
  const payload = Buffer.from(`${PREFIX[doc.kind]}:${doc.businessId}:${doc.id}`).toString('base64url');
  return `${payload}.${secrets.sign(signed(payload))}`;
}

/** The document a token names when it is one the service signed for `kind`; null otherwise. */
export function readHostedToken(
  secrets: SecretBox,
  kind: DocumentKind,
  token: string,
): HostedDocument | null {
  const [payload = '', signature = '', extra] = token.split('.');
  if (extra !== undefined || !payload || payload.length > 400) return null;
  if (!secrets.verify(signed(payload), signature)) return null;
  const [prefix, businessId, id, rest] = Buffer.from(payload, 'base64url').toString('utf8').split(':');
  if (prefix !== PREFIX[kind] || !businessId || !id || rest !== undefined) return null;
  return { kind, businessId, id };
}

export const hostedPath = (secrets: SecretBox, doc: HostedDocument): string =>
  `/${PREFIX[doc.kind]}/${hostedToken(secrets, doc)}`;

type Env = { config: Readonly<Config>; secrets: SecretBox; businessId: string };

/** The page's address of a document that always has one (a credit note: never a draft). */
export const documentUrl = (env: Env, kind: DocumentKind, id: string): string =>
  `${publicBaseUrl(env.config)}${hostedPath(env.secrets, { kind, businessId: env.businessId, id })}`;

/** The page's address, or null for a document that has none (a draft). */
export function hostedUrl(env: Env, kind: DocumentKind, row: { id: string; status: string }): string | null {
  return row.status === 'draft' ? null : documentUrl(env, kind, row.id);
}
