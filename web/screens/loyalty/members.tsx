import { useState } from 'preact/hooks';
import { contract, loyalty, unwrap } from '../../../client/index.js';
import { ExportButton } from '../../components/csv.js';
import {
  Badge,
  Button,
  Dialog,
  ErrorMessage,
  Field,
  Link,
  PageHeader,
  Select,
  Table,
} from '../../components/ui.js';
import { date, number } from '../../lib/format.js';
import { useForm, useLoad } from '../../lib/forms.js';
import { oneOf, pageOf, pageQuery } from '../../lib/lists.js';
import { conflictOn, summaryOf } from '../../lib/refusals.js';
import { here, navigate, useQueryText, withQuery } from '../../lib/router.js';
import { api, can } from '../../lib/session.js';
import type { ScreenProps } from '../../lib/screen.js';
import { StatusTabs } from '../../components/status-tabs.js';
import { CustomerPicker } from '../marketing/customer-picker.js';
import { integerOf } from '../../lib/numbers.js';
import { PagedList } from '../../components/paged-list.js';

/** Loyalty members: searched, by status and tier, paged from the URL; a customer enrolled here. */

const SIZE = 20;

function Enroll(props: { tiers: loyalty.Tier[]; onCancel: () => void }) {
  const [customerId, setCustomerId] = useState('');
  const [tierId, setTierId] = useState('');
  const [initial, setInitial] = useState('');
  const form = useForm();
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
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
      <ErrorMessage message={summaryOf(form)} />
      <div class="dialog-actions">
        <Button onClick={props.onCancel}>Cancel</Button>
        <Button type="submit" kind="primary" busy={form.busy}>
          Enroll
        </Button>
      </div>
    </form>
  );
}

export default function Members(_props: ScreenProps) {
  const query = here.value.query;
  const page = pageOf(query);
  const status = oneOf(query, 'status', loyalty.MEMBER_STATUSES);
  const tier = query.get('tier') || undefined;
  const search = query.get('search') ?? '';
  const [searchText, setSearchText] = useQueryText('search');
  const [enrolling, setEnrolling] = useState(false);
  const tiers = useLoad(async () => (await unwrap(api.value.loyalty.tiers.listTiers())).data, []);
  const list = useLoad(
    () =>
      unwrap(
        api.value.loyalty.members.listMembers({
          query: { status, tier, search: search || undefined, ...pageQuery(page, SIZE) },
        }),
      ),
    [page, status, tier, search],
  );
  const filtered = Boolean(status || tier || search);
  return (
    <>
      <PageHeader title="Members">
        <ExportButton
          route={contract.loyalty.members.listMembers}
          query={{ status, tier, search: search || undefined }}
        />
        {can('enrollMember') ? (
          <Button kind="primary" onClick={() => setEnrolling(true)}>
            Enroll a customer
          </Button>
        ) : null}
      </PageHeader>
      <StatusTabs label="Member status" values={loyalty.MEMBER_STATUSES} current={status} />
      <form
        class="filters member-filters"
        role="search"
        aria-label="Filter members"
        onSubmit={(e) => e.preventDefault()}
      >
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
      </form>
      <PagedList
        error={list.error}
        reload={list.reload}
        data={list.data && { rows: list.data.data, total: list.data.totalCount }}
        page={page}
        size={SIZE}
        filtered={{
          active: !!filtered,
          title: 'No member matches these filters',
          clear: ['search', 'status', 'tier'],
          show: 'Clear the filters',
        }}
        empty={{
          title: 'No members yet',
          children: (
            <>
              <p>
                Customers join when they buy (automatic enrollment) or when you enroll them
                {can('enrollMember') ? ' with Enroll a customer' : ''}. A program is needed first:{' '}
                <Link to="/loyalty/program">set it up</Link>.
              </p>
            </>
          ),
        }}
      >
        {(rows) => (
          <>
            <Table
              caption="Members"
              rows={rows}
              rowKey={(m) => m.publicId}
              columns={[
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
              ]}
            />
          </>
        )}
      </PagedList>
      <Dialog title="Enroll a customer" open={enrolling} onClose={() => setEnrolling(false)}>
        <Enroll tiers={tiers.data ?? []} onCancel={() => setEnrolling(false)} />
      </Dialog>
    </>
  );
}
