import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { useLoad } from '../lib/forms.js';
import { ErrorMessage, Field, Select } from './ui.js';

/** The type-to-find field a picker waits on: the text, and the text once typing stopped. */
function useSettled(delayMs = 250): [string, string, (value: string) => void] {
  const [text, setText] = useState('');
  const [settled, setSettled] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSettled(text.trim()), delayMs);
    return () => clearTimeout(timer);
  }, [text]);
  return [text, settled, setText];
}

/**
 * A field to type in and a choice of what the typing found (`find`, asked again once typing stops):
 * the pickers of a customer (marketing, invoices and quotes) and of a member (loyalty).
 */
export function SearchPicker<T>(props: {
  find: (search: string | undefined) => Promise<T[]>;
  option: (item: T) => { value: string; label: string };
  /** The search field's label, name and hint. */
  search: { label: string; name: string; hint?: string };
  /** The choice's label and name, and what it says before a choice and when nothing was found. */
  choice: { label: string; name: string; choose: string; none: string };
  value: string;
  onValue: (id: string) => void;
  error?: string;
  /** The chosen item while the search does not find it (one named in the URL), so it shows by name. */
  chosen?: { value: string; label: string };
  /** What shows instead of the picker when there is nothing to choose from at all. */
  whenNone?: ComponentChildren;
  class?: string;
}) {
  const [text, search, setText] = useSettled();
  const list = useLoad(() => props.find(search || undefined), [search]);
  const items = list.data ?? [];
  const found = items.map(props.option);
  const { chosen } = props;
  const options = [
    { value: '', label: list.loading ? 'Loading…' : items.length ? props.choice.choose : props.choice.none },
    ...(chosen && !found.some((o) => o.value === chosen.value) ? [chosen] : []),
    ...found,
  ];
  if (list.error) return <ErrorMessage message={list.error} onRetry={list.reload} />;
  if (props.whenNone && list.data && items.length === 0 && !search) return <>{props.whenNone}</>;
  return (
    <div class={props.class ?? 'picker'}>
      <Field
        label={props.search.label}
        name={props.search.name}
        type="search"
        value={text}
        onValue={setText}
        hint={props.search.hint}
      />
      <Select
        label={props.choice.label}
        name={props.choice.name}
        value={props.value}
        options={options}
        onValue={props.onValue}
        error={props.error}
      />
    </div>
  );
}
