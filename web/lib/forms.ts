import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { ZodType, ZodTypeDef } from 'zod';
import { BmsApiError } from '../../client/transport.js';
import {
  CHECK_FIELDS,
  CONNECTION_LOST,
  SOMETHING_WENT_WRONG,
  fieldMessage,
  plainDetail,
  refusalMessage,
  type FieldContext,
  type FieldIssue,
} from './messages.js';
import { expired, refresh } from './session.js';

/**
 * Forms and loads. A form checks its input with the contract's own Zod schema before sending, and
 * shows the server's `details` beside the fields they name; any other refusal shows as one message.
 */

export type FieldErrors = Record<string, string>;

/**
 * The first message per field of a Zod refusal, by dotted path (`items.0.quantity`), in the words of
 * the message catalogue (web/lib/messages.ts).
 */
export function zodErrors(
  issues: readonly (FieldIssue & { path: (string | number)[] })[],
  context: FieldContext = {},
): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const field = issue.path.join('.') || '_';
    errors[field] ??= fieldMessage(issue, context);
  }
  return errors;
}

/** The currency a form's amounts are in: the one it names, else the one its input carries. */
const contextOf = (input: unknown, context: FieldContext | undefined): FieldContext => {
  if (context?.currency) return context;
  const currency = (input as { currency?: unknown } | null | undefined)?.currency;
  return typeof currency === 'string' && /^[A-Z]{3}$/.test(currency) ? { currency } : {};
};

/** What a failed call says: its message, and the fields it names, in the catalogue's words. */
/** A refusal a screen words itself, beside one of its fields: shown as written. */
export class FieldRefusal extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export function describeError(
  err: unknown,
  context: FieldContext = {},
): { message: string; fields: FieldErrors } {
  if (err instanceof BmsApiError) {
    if (err.status === 401) expired();
    // The business came to require a second factor since the session was read: the app then opens
    // only the security screen.
    if (err.status === 403 && /requires two-factor sign-in/.test(err.message)) {
      refresh().catch(() => undefined);
    }
    const fields: FieldErrors = {};
    for (const detail of err.details ?? []) fields[detail.field] ??= plainDetail(detail.message, context);
    return { message: refusalMessage(err.code, err.message), fields };
  }
  if (err instanceof FieldRefusal) return { message: CHECK_FIELDS(1), fields: { [err.field]: err.message } };
  if (err instanceof TypeError) return { message: CONNECTION_LOST, fields: {} };
  return { message: SOMETHING_WENT_WRONG, fields: {} };
}

export interface Form {
  errors: FieldErrors;
  message: string | null;
  busy: boolean;
  /**
   * Checks `input` with the schema, then runs `send` with the parsed value; errors land on the
   * form. Resolves to what `send` returned, or undefined when refused.
   */
  submit<T, R>(
    schema: ZodType<T, ZodTypeDef, unknown> | null,
    input: unknown,
    send: (value: T) => Promise<R>,
    /** What the messages need to know of the form (its currency, when its input does not carry one). */
    context?: FieldContext,
  ): Promise<R | undefined>;
  clear(): void;
}

/**
 * Focuses the first field marked invalid in `root` and scrolls it into view, so whoever pressed
 * Save at the foot of a long form, by mouse, keyboard or screen reader, lands on what to fix.
 */
function focusFirstInvalid(root: ParentNode): void {
  const marked = root.querySelector<HTMLElement>('[aria-invalid="true"]');
  const field = marked?.matches('input, select, textarea')
    ? marked
    : marked?.querySelector<HTMLElement>('input, select, textarea');
  if (!field) return;
  field.scrollIntoView({ block: 'center' });
  field.focus({ preventScroll: true });
}

export function useForm(): Form {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** The form being submitted (the one holding the focus), and a count of its refusals. */
  const submitted = useRef<HTMLFormElement | null>(null);
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals > 0) focusFirstInvalid(submitted.current ?? document);
  }, [refusals]);
  const submit = useCallback(
    async <T, R>(
      schema: ZodType<T, ZodTypeDef, unknown> | null,
      input: unknown,
      send: (value: T) => Promise<R>,
      context?: FieldContext,
    ): Promise<R | undefined> => {
      let value = input as T;
      submitted.current = document.activeElement?.closest('form') ?? null;
      const words = contextOf(input, context);
      if (schema) {
        const parsed = schema.safeParse(input);
        if (!parsed.success) {
          const fields = zodErrors(parsed.error.issues, words);
          setErrors(fields);
          setMessage(CHECK_FIELDS(Object.keys(fields).length));
          setRefusals((n) => n + 1);
          return undefined;
        }
        value = parsed.data;
      }
      setBusy(true);
      setErrors({});
      setMessage(null);
      try {
        return await send(value);
      } catch (err) {
        const described = describeError(err, words);
        setErrors(described.fields);
        setMessage(described.message);
        setRefusals((n) => n + 1);
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [],
  );
  const clear = useCallback(() => {
    setErrors({});
    setMessage(null);
  }, []);
  return { errors, message, busy, submit, clear };
}

export interface Load<T> {
  data: T | undefined;
  error: string | null;
  loading: boolean;
  reload: () => void;
}

/**
 * Loads with `fetch` whenever `deps` change; a later load wins over an earlier one still running. A
 * refused query (a filter's values, from the URL) has no form to show its fields' refusals beside:
 * the error is what they say, in the dashboard's words, rather than "check the form".
 */
export function useLoad<T>(fetch: () => Promise<T>, deps: readonly unknown[]): Load<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const run = ++latest.current;
    setLoading(true);
    fetch().then(
      (value) => {
        if (run !== latest.current) return;
        setData(value);
        setError(null);
        setLoading(false);
      },
      (err: unknown) => {
        if (run !== latest.current) return;
        const { message, fields } = describeError(err);
        const refusals = Object.values(fields);
        setError(refusals.length > 0 ? refusals.join(' ') : message);
        setLoading(false);
      },
    );
  }, [...deps, tick]);
  return { data, error, loading, reload: () => setTick((t) => t + 1) };
}

/** The keys of `D` whose values are text. */
type TextKeys<D> = { [K in keyof D]: D[K] extends string ? K : never }[keyof D] & string;

/**
 * A form's draft of text fields: `set(key)` is a field's onValue, and `bind(key, errors)` the props
 * binding a Field or Select to `key` (name, value, onValue and the refusal naming it).
 */
export function useDraft<D extends object>(initial: () => D) {
  const [draft, setDraft] = useState<D>(initial);
  const set = (key: keyof D) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));
  const bind = (key: TextKeys<D>, errors: FieldErrors) => ({
    name: key,
    value: draft[key] as string,
    onValue: set(key),
    error: errors[key],
  });
  return { draft, setDraft, set, bind };
}
