import { useState } from 'preact/hooks';
import { describeError } from './forms.js';

/** Where an action a button starts is: running (the button shows it) or refused (its message shown). */
export interface ActionState {
  busy: boolean;
  error: string | null;
}

/**
 * Runs `work`, reporting it busy, then done or refused with the refusal's words (`describe`); `done`
 * gets the answer. Resolves null when the work succeeded, the refusal's words when it was refused.
 */
export async function perform<T>(
  work: () => Promise<T>,
  report: (state: ActionState) => void,
  describe: (err: unknown) => string,
  done?: (answer: T) => void,
): Promise<string | null> {
  report({ busy: true, error: null });
  let answer: T;
  try {
    answer = await work();
  } catch (err) {
    const error = describe(err);
    report({ busy: false, error });
    return error;
  }
  report({ busy: false, error: null });
  done?.(answer);
  return null;
}

/**
 * An action's `run`, with `busy` while it runs and the service's refusal as `error` (cleared when it
 * runs again; `clear` clears it when the dialog or form it belongs to closes).
 */
export function useAction() {
  const [state, setState] = useState<ActionState>({ busy: false, error: null });
  const run = <T>(work: () => Promise<T>, done?: (answer: T) => void): Promise<string | null> =>
    perform(work, setState, (err) => describeError(err).message, done);
  const clear = () => setState((s) => ({ ...s, error: null }));
  return { run, busy: state.busy, error: state.error, clear };
}
