import { unwrap } from '../../../client/index.js';
import { SearchPicker } from '../../components/search-picker.js';
import { api } from '../../lib/api.js';

/** A loyalty member, found by name or email. */
export function MemberPicker(props: { value: string; onValue: (id: string) => void; error?: string }) {
  return (
    <SearchPicker
      find={async (search) =>
        (
          await unwrap(
            api.value.loyalty.members.listMembers({ query: { search, limit: 50, status: 'active' } }),
          )
        ).data
      }
      option={(m) => ({
        value: m.publicId,
        label: `${m.customerName}${m.customerEmail ? ` (${m.customerEmail})` : ''}: ${m.pointsBalance} points`,
      })}
      search={{ label: 'Find a member', name: 'member_search', hint: 'Name or email' }}
      choice={{ label: 'Member', name: 'memberId', choose: 'Choose a member', none: 'No member found' }}
      value={props.value}
      onValue={props.onValue}
      error={props.error}
    />
  );
}
