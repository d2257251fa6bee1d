import { useState } from 'preact/hooks';
import { ErrorMessage, Notice } from './ui.js';

/** What a screen says after an action: what was done, or why it was refused; one at a time. */
export interface Outcome {
  notice: string | null;
  error: string | null;
  done: (message: string | null) => void;
  failed: (message: string) => void;
}

export function useOutcome(): Outcome {
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  return {
    notice,
    error,
    done: (message) => {
      setError(null);
      setNotice(message);
    },
    failed: (message) => {
      setNotice(null);
      setError(message);
    },
  };
}

/** The outcome shown: a success notice, or the refusal. */
export function OutcomeMessage(props: { outcome: Outcome }) {
  const { notice, error } = props.outcome;
  return (
    <>
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      <ErrorMessage message={error} />
    </>
  );
}

/**
 * The notice of what was done last on a screen; `opens(setOpen)` is the click of a button opening one
 * of its dialogs, which clears the notice first.
 */
export function useNotice<N = string>() {
  const [notice, setNotice] = useState<N | null>(null);
  const opens = (setOpen: (open: true) => void) => () => {
    setNotice(null);
    setOpen(true);
  };
  return { notice, setNotice, opens };
}
