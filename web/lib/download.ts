/** Files the dashboard hands the person: a document's PDF, a list's CSV. */

/** The file name a response's `Content-Disposition` gives, or `fallback`. */
export const fileNameOf = (headers: Headers, fallback: string): string =>
  /filename="([^"]+)"/.exec(headers.get('content-disposition') ?? '')?.[1] ?? fallback;

/** Saves a Blob under `name` through an object URL (same origin, so the page's CSP allows it). */
export function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked later: the download reads the object URL after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
