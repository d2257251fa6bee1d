import { useEffect, useState } from 'preact/hooks';
import { unwrap } from '../../client/index.js';
import { useLoad } from '../lib/forms.js';
import { allowed, api } from '../lib/session.js';
import { Field, Select } from './ui.js';

/**
 * What the marketing and loyalty screens share: status tabs written to the URL, offset paging of
 * their lists (limit and offset, a total count) as pages, and pickers of a customer and a member.
 */

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

/** A customer of the business, found by name, email or company. */
export function CustomerPicker(props: {
  value: string;
  onValue: (id: string) => void;
  error?: string;
  label?: string;
}) {
  const [text, search, setText] = useSettled();
  const list = useLoad(
    async () =>
      allowed('customers.read')
        ? (
            await unwrap(
              api.value.general.customers.listCustomers({
                query: { search: search || undefined, limit: 50, sort: 'name:asc' },
              }),
            )
          ).data
        : [],
    [search],
  );
  const customers = list.data ?? [];
  const options = [
    {
      value: '',
      label: list.loading ? 'Loading…' : customers.length ? 'Choose a customer' : 'No customer found',
    },
    ...customers.map((c) => ({ value: c.id, label: c.email ? `${c.name} (${c.email})` : c.name })),
  ];
  return (
    <div class="picker">
      <Field
        label={`Find a ${(props.label ?? 'customer').toLowerCase()}`}
        name="customer_search"
        type="search"
        value={text}
        onValue={setText}
        hint="Name, email or company"
      />
      <Select
        label={props.label ?? 'Customer'}
        name="customer_id"
        value={props.value}
        options={options}
        onValue={props.onValue}
        error={props.error}
      />
    </div>
  );
}

/** A loyalty member, found by name or email. */
export function MemberPicker(props: { value: string; onValue: (id: string) => void; error?: string }) {
  const [text, search, setText] = useSettled();
  const list = useLoad(
    async () =>
      (
        await unwrap(
          api.value.loyalty.members.listMembers({
            query: { search: search || undefined, limit: 50, status: 'active' },
          }),
        )
      ).data,
    [search],
  );
  const members = list.data ?? [];
  const options = [
    { value: '', label: list.loading ? 'Loading…' : members.length ? 'Choose a member' : 'No member found' },
    ...members.map((m) => ({
      value: m.publicId,
      label: `${m.customerName}${m.customerEmail ? ` (${m.customerEmail})` : ''}: ${m.pointsBalance} points`,
    })),
  ];
  return (
    <div class="picker">
      <Field
        label="Find a member"
        name="member_search"
        type="search"
        value={text}
        onValue={setText}
        hint="Name or email"
      />
      <Select
        label="Member"
        name="memberId"
        value={props.value}
        options={options}
        onValue={props.onValue}
        error={props.error}
      />
    </div>
  );
}

/** An integer typed in a field, or the text itself (so the schema refuses it beside the field). */
export function integerOf(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return /^-?\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** A decimal typed in a field, or the text itself. */
export function decimalOf(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}
