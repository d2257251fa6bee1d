import { renderPdf, type DocumentIssuer, type DocumentRecipient, type PdfSource } from './pdf.js';

/** The thread-pool task of the document renderer (see render.ts). */
export default async function render(task: {
  source: PdfSource;
  issuer: DocumentIssuer;
  recipient: DocumentRecipient | null;
}): Promise<Uint8Array> {
  return renderPdf(task.source, task.issuer, task.recipient);
}
