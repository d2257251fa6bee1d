import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { slot, type ServiceState } from '../../platform/state.js';
import { renderPdf, type DocumentIssuer, type DocumentRecipient, type PdfSource } from './pdf.js';

/** The compiled thread-pool task (absent when the service runs from its TypeScript sources). */
const RENDER_WORKER = fileURLToPath(new URL('./pdf.worker.js', import.meta.url));
const compiled = existsSync(RENDER_WORKER);

/** The service's rendering threads, started on first use. */
const RENDERERS = slot('document rendering threads', () => ({ pool: undefined as Piscina | undefined }));

/**
 * Renders a document's PDF off the event loop: laying out a page is CPU work (about 15 ms for 50
 * lines), done on worker threads so that requests and the mail queue keep moving meanwhile, and a
 * burst of sends uses every core. Run from sources (tests), it renders in-line.
 */
export async function renderOffThread(
  state: ServiceState,
  source: PdfSource,
  issuer: DocumentIssuer,
  recipient: DocumentRecipient | null,
): Promise<Buffer> {
  if (!compiled) return renderPdf(source, issuer, recipient);
  const held = state.get(RENDERERS);
  // Threads stay up: each one parses the fonts once, on its first document.
  held.pool ??= new Piscina({
    filename: RENDER_WORKER,
    minThreads: 1,
    maxThreads: Math.max(1, availableParallelism()),
    idleTimeout: 60_000,
  });
  const bytes = (await held.pool.run({ source, issuer, recipient })) as Uint8Array;
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Stops the rendering threads (at shutdown). */
export async function closeRenderers(state: ServiceState): Promise<void> {
  const held = state.get(RENDERERS);
  await held.pool?.destroy();
  held.pool = undefined;
}
