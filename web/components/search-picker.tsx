import { useEffect, useState } from 'preact/hooks';
import { useLoad } from '../lib/forms.js';
import { Field, Select } from './ui.js';

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
 * the pickers of a customer (marketing) and of a member (loyalty).
 */
export function SearchPicker<T>(props: {
  find: (search: string | undefined) => Promise<T[]>;
  option: (item: T) => { value: string; label: string };
  /** The search field's label, name and hint. */
  search: { label: string; name: string; hint: string };
  /** The choice's label and name, and what it says before a choice and when nothing was found. */
  choice: { label: string; name: string; choose: string; none: string };
  value: string;
  onValue: (id: string) => void;
  error?: string;
}) {
  const [text, search, setText] = useSettled();
  const list = useLoad(() => props.find(search || undefined), [search]);
  const items = list.data ?? [];
  const options = [
    { value: '', label: list.loading ? 'Loading…' : items.length ? props.choice.choose : props.choice.none },
    ...items.map(props.option),
  ];
  return (
    <div class="picker">
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
