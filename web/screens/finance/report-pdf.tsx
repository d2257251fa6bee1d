import { useState } from 'preact/hooks';
import { PdfButton } from '../general/documents/delivery.js';

/** "Download PDF" of a report, with its refusal shown beside the button. */
export function ReportPdf(props: {
  fetch: Parameters<typeof PdfButton>[0]['fetch'];
  fallbackName: string;
  /** What the PDF holds, for screen readers: "the balance sheet". */
  what: string;
}) {
  const [error, setError] = useState<string | null>(null);
  return (
    <span class="export">
      <PdfButton fetch={props.fetch} fallbackName={props.fallbackName} onError={setError} />
      {error ? (
        <span class="error" role="alert">
          The PDF of {props.what} failed: {error}
        </span>
      ) : null}
    </span>
  );
}
