import { useState } from 'preact/hooks';
import { Button } from './ui.js';

/** A copy button for a value shown on the page (a key, a DNS record). */

/** Copies `value`; `what` completes its name for screen readers ("Copy the DKIM record's value"). */
export function CopyButton(props: { value: string; what: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      class="button secondary small"
      onClick={() => {
        void navigator.clipboard?.writeText(props.value).then(
          () => {
            setCopied(true);
            setTimeout(() => setCopied(false), 2000);
          },
          () => setCopied(false),
        );
      }}
    >
      {copied ? 'Copied' : 'Copy'}
      <span class="visually-hidden"> {props.what}</span>
    </Button>
  );
}
