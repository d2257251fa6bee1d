import { unwrap } from '../../../client/index.js';
import { SearchPicker } from '../../components/search-picker.js';
import { api } from '../../lib/api.js';
import { allowed } from '../../lib/session.js';

/** A customer of the business, found by name, email or company. */
export function CustomerPicker(props: {
  value: string;
  onValue: (id: string) => void;
  error?: string;
  label?: string;
}) {
  return (
    <SearchPicker
      find={async (search) =>
        allowed('customers.read')
          ? (
              await unwrap(
                api.value.general.customers.listCustomers({ query: { search, limit: 50, sort: 'name:asc' } }),
              )
            ).data
          : []
      }
      option={(c) => ({ value: c.id, label: c.email ? `${c.name} (${c.email})` : c.name })}
      search={{
        label: `Find a ${(props.label ?? 'customer').toLowerCase()}`,
        name: 'customer_search',
        hint: 'Name, email or company',
      }}
      choice={{
        label: props.label ?? 'Customer',
        name: 'customer_id',
        choose: 'Choose a customer',
        none: 'No customer found',
      }}
      value={props.value}
      onValue={props.onValue}
      error={props.error}
    />
  );
}
