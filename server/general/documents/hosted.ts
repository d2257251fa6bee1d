import { publicBaseUrl, type Config } from '../../config.js';
import type { SecretBox } from '../../platform/secret-box.js';

/**
 * The hosted pages of documents (docs/decisions.md D151): `/i/<token>` for an invoice, `/q/<token>` for a
 * quote. The token names the business and the document and is signed (HMAC-SHA256, 128 bits), so it
 * cannot be guessed or altered: anything else answers 404. It does not expire; a document that is
 * deleted, or still a draft, has no page.
 */

export type DocumentKind = 'invoice' | 'quote';

export interface HostedDocument {
  kind: DocumentKind;
  businessId: string;
  id: string;
}

const PREFIX: Record<DocumentKind, string> = { invoice: 'i', quote: 'q' };

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

/** The page's address, or null for a document that has none (a draft). */
export function hostedUrl(
  env: { config: Readonly<Config>; secrets: SecretBox; businessId: string },
  kind: DocumentKind,
  row: { id: string; status: string },
): string | null {
  if (row.status === 'draft') return null;
  return `${publicBaseUrl(env.config)}${hostedPath(env.secrets, { kind, businessId: env.businessId, id: row.id })}`;
}
