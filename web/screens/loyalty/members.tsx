import { useState } from 'preact/hooks';
import { contract, loyalty, unwrap } from '../../../client/index.js';
import { DialogForm } from '../../components/form-dialog.js';
import { Filters, ListPage } from '../../components/list-page.js';
import { Badge, Field, Link, Select } from '../../components/ui.js';
import { date, number } from '../../lib/format.js';
import { useForm, useLoad } from '../../lib/forms.js';
import { usePagedList } from '../../lib/list-query.js';
import { oneOf } from '../../lib/lists.js';
import { integerOf } from '../../lib/numbers.js';
import { conflictOn } from '../../lib/refusals.js';
import { here, navigate, useQueryText, withQuery } from '../../lib/router.js';
import type { ScreenProps } from '../../lib/screen.js';
import { api, can } from '../../lib/api.js';
import { CustomerPicker } from '../marketing/customer-picker.js';

/** Loyalty members: searched, by status and tier, paged from the URL; a customer enrolled here. */

const SIZE = 20;

function Enroll(props: { tiers: loyalty.Tier[]; onCancel: () => void }) {
  const [customerId, setCustomerId] = useState('');
  const [tierId, setTierId] = useState('');
  const [initial, setInitial] = useState('');
  const form = useForm();
  return (
    <DialogForm
      form={form}
      submit="Enroll"
      onCancel={props.onCancel}
      onSubmit={() => {
        void form
          .submit(
            loyalty.EnrollMemberBodySchema,
            { customerId, tierId: tierId || undefined, initialPoints: integerOf(initial) },
            (body) => conflictOn('customerId', unwrap(api.value.loyalty.members.enrollMember({ body }))),
          )
          .then((answer) => {
            if (answer) navigate(`/loyalty/members/${answer.data.publicId}`);
          });
      }}
    >
      <CustomerPicker
        value={customerId}
        onValue={setCustomerId}
        error={form.errors.customerId && (customerId ? form.errors.customerId : 'Choose a customer')}
      />
      <div class="form-grid">
        <Select
          label="Tier"
          name="tierId"
          value={tierId}
          options={[
            { value: '', label: 'The lowest tier' },
            ...props.tiers.map((t) => ({ value: t.publicId, label: t.name })),
          ]}
          onValue={setTierId}
          error={form.errors.tierId}
        />
        <Field
          label="Starting points"
          name="initialPoints"
          type="number"
          min={0}
          inputMode="numeric"
          value={initial}
          onValue={setInitial}
          error={form.errors.initialPoints}
          hint="Optional welcome points"
        />
      </div>
    </DialogForm>
  );
}

export default function Members(_props: ScreenProps) {
  const query = here.value.query;
  const status = oneOf(query, 'status', loyalty.MEMBER_STATUSES);
  const tier = query.get('tier') || undefined;
  const search = query.get('search') || undefined;
  const [searchText, setSearchText] = useQueryText('search');
  const tiers = useLoad(async () => (await unwrap(api.value.loyalty.tiers.listTiers())).data, []);
  const list = usePagedList(
    SIZE,
    (paging) => api.value.loyalty.members.listMembers({ query: { status, tier, search, ...paging } }),
    (answer) => ({ rows: answer.data, total: answer.totalCount }),
    [status, tier, search],
  );
  return (
    <ListPage
      title="Members"
      export={{ route: contract.loyalty.members.listMembers, query: { status, tier, search } }}
      create={{
        operation: 'enrollMember',
        label: 'Enroll a customer',
        form: (close) => <Enroll tiers={tiers.data ?? []} onCancel={close} />,
      }}
      tabs={{ label: 'Member status', values: loyalty.MEMBER_STATUSES, current: status }}
      filters={
        <Filters label="Filter members" class="member-filters">
          <Field
            label="Search"
            name="search"
            type="search"
            hint="Name or email"
            value={searchText}
            onValue={setSearchText}
          />
          <Select
            label="Tier"
            name="tier"
            value={tier ?? ''}
            options={[
              { value: '', label: 'Every tier' },
              ...(tiers.data ?? []).map((t) => ({ value: t.publicId, label: t.name })),
            ]}
            onValue={(value) => navigate(withQuery({ tier: value, page: null }))}
          />
        </Filters>
      }
      list={list}
      filtered={{
        active: Boolean(status || tier || search),
        title: 'No member matches these filters',
        clear: ['search', 'status', 'tier'],
        show: 'Clear the filters',
      }}
      empty={{
        title: 'No members yet',
        children: (
          <p>
            Customers join when they buy (automatic enrollment) or when you enroll them
            {can('enrollMember') ? ' with Enroll a customer' : ''}. A program is needed first:{' '}
            <Link to="/loyalty/program">set it up</Link>.
          </p>
        ),
      }}
      table={{
        caption: 'Members',
        rowKey: (m) => m.publicId,
        columns: [
          {
            label: 'Member',
            render: (m) => <Link to={`/loyalty/members/${m.publicId}`}>{m.customerName}</Link>,
          },
          { label: 'Email', render: (m) => m.customerEmail ?? '—' },
          { label: 'Tier', render: (m) => m.tierName ?? '—' },
          { label: 'Balance', numeric: true, render: (m) => number(m.pointsBalance) },
          { label: 'Lifetime', numeric: true, render: (m) => number(m.lifetimePoints) },
          { label: 'Status', render: (m) => <Badge value={m.status} /> },
          { label: 'Enrolled', render: (m) => date(m.enrolledAt) },
        ],
      }}
    />
  );
}
