import { useState } from 'preact/hooks';
import { BmsApiError, contract, loyalty, unwrap } from '../../../client/index.js';
import { ConfirmButton } from '../../components/confirm.js';
import {
  Badge,
  Button,
  Dialog,
  ErrorMessage,
  Field,
  Link,
  Notice,
  PageHeader,
  Select,
} from '../../components/ui.js';
import { DialogForm } from '../../components/form-dialog.js';
import { RecordUnavailable } from '../../components/record.js';
import { ListSection } from '../../components/list-page.js';
import { usePagedList } from '../../lib/list-query.js';
import { dateTime, number } from '../../lib/format.js';
import { useForm, useLoad } from '../../lib/forms.js';
import { oneOf } from '../../lib/lists.js';
import { summaryOf } from '../../lib/refusals.js';
import { here, navigate } from '../../lib/router.js';
import { api, can } from '../../lib/api.js';
import { allowed } from '../../lib/session.js';
import type { ScreenProps } from '../../lib/screen.js';
import { integerOf } from '../../lib/numbers.js';

/**
 * One member: balance, tier and status (changed here), points added or removed with a reason, and
 * every transaction of theirs by type, newest first.
 */

type Member = loyalty.MemberDetail;

/** A balance too low for the points removed names no field: it is about the points, so it shows there. */
async function onPoints<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof BmsApiError && err.code === 'INSUFFICIENT_POINTS' && !err.details?.length) {
      throw new BmsApiError(err.status, {
        error: {
          code: err.code,
          message: err.message,
          status: err.status,
          details: [{ field: 'points', message: err.message }],
        },
      });
    }
    throw err;
  }
}

function AdjustPoints(props: { member: Member; onDone: (message: string) => void }) {
  const [points, setPoints] = useState('');
  const [description, setDescription] = useState('');
  const form = useForm();
  return (
    <section class="panel" aria-labelledby="adjust-points">
      <h2 id="adjust-points">Adjust points</h2>
      <form
        noValidate
        class="inline-form"
        onSubmit={(e) => {
          e.preventDefault();
          void form
            .submit(
              loyalty.AdjustPointsBodySchema,
              { memberId: props.member.publicId, points: integerOf(points) ?? 0, description },
              (body) => onPoints(unwrap(api.value.loyalty.transactions.adjustPoints({ body }))),
            )
            .then((answer) => {
              if (!answer) return;
              const t = answer.data;
              setPoints('');
              setDescription('');
              props.onDone(
                `${t.points > 0 ? 'Added' : 'Removed'} ${number(Math.abs(t.points))} points: the balance is ${number(t.balanceAfter)}.`,
              );
            });
        }}
      >
        <Field
          label="Points"
          name="points"
          type="number"
          inputMode="numeric"
          value={points}
          onValue={setPoints}
          error={form.errors.points}
          hint="Negative to remove"
          required
        />
        <Field
          label="Reason"
          name="description"
          value={description}
          onValue={setDescription}
          error={form.errors.description}
          hint="Shown in the member's history"
          required
        />
        <Button type="submit" kind="primary" busy={form.busy}>
          Adjust
        </Button>
      </form>
      <ErrorMessage message={summaryOf(form)} />
    </section>
  );
}

function EditMember(props: {
  member: Member;
  tiers: loyalty.Tier[];
  onSaved: () => void;
  onCancel: () => void;
}) {
  const [tierId, setTierId] = useState(props.member.tierId ?? '');
  const [status, setStatus] = useState<Member['status']>(props.member.status);
  const form = useForm();
  return (
    <DialogForm
      form={form}
      submit="Save"
      onCancel={props.onCancel}
      onSubmit={() => {
        void form
          .submit(
            loyalty.UpdateMemberBodySchema,
            { tierId: tierId && tierId !== props.member.tierId ? tierId : undefined, status },
            (body) =>
              unwrap(
                api.value.loyalty.members.updateMember({ params: { publicId: props.member.publicId }, body }),
              ),
          )
          .then((ok) => ok && props.onSaved());
      }}
    >
      <Select
        label="Tier"
        name="tierId"
        value={tierId}
        options={[
          ...(props.member.tierId ? [] : [{ value: '', label: 'No tier' }]),
          ...props.tiers.map((t) => ({
            value: t.publicId,
            label: `${t.name} (from ${number(t.minPoints)})`,
          })),
        ]}
        onValue={setTierId}
        error={form.errors.tierId}
      />
      <p class="hint">A tier set here is kept until earning qualifies the member for a higher one.</p>
      <Select
        label="Status"
        name="status"
        value={status}
        options={loyalty.MEMBER_STATUSES.map((s) => ({ value: s, label: s[0]!.toUpperCase() + s.slice(1) }))}
        onValue={(v) => setStatus(v as Member['status'])}
        error={form.errors.status}
      />
    </DialogForm>
  );
}

function Transactions(props: { member: Member; version: number }) {
  const type = oneOf(here.value.query, 'type', loyalty.TRANSACTION_TYPES);
  const list = usePagedList(
    20,
    (paging) =>
      api.value.loyalty.members.listMemberTransactions({
        params: { publicId: props.member.publicId },
        query: { type, ...paging },
      }),
    (answer) => ({ rows: answer.data, total: answer.totalCount }),
    [props.member.publicId, type, props.version],
  );
  return (
    <ListSection
      id="member-transactions"
      title="Transactions"
      export={{
        route: contract.loyalty.members.listMemberTransactions,
        params: { publicId: props.member.publicId },
        query: { type },
        what: `the transactions of ${props.member.customerName}`,
      }}
      tabs={{ label: 'Transaction type', param: 'type', values: loyalty.TRANSACTION_TYPES, current: type }}
      list={list}
      filtered={{
        active: !!type,
        title: `No ${type} transactions`,
        clear: ['type'],
        show: 'Show every transaction',
        after: '',
      }}
      empty={{
        title: 'No transactions yet',
        children: (
          <p>Points earned on invoices, spent on rewards and adjusted here are listed as they happen.</p>
        ),
      }}
      table={{
        caption: `Transactions of ${props.member.customerName}`,
        rowKey: (t) => t.publicId,
        columns: [
          { label: 'When', render: (t) => dateTime(t.dateCreated) },
          { label: 'Type', render: (t) => <Badge value={t.type} /> },
          { label: 'Description', render: (t) => t.description ?? '—' },
          {
            label: 'Points',
            numeric: true,
            render: (t) => (t.points > 0 ? `+${number(t.points)}` : number(t.points)),
          },
          { label: 'Balance after', numeric: true, render: (t) => number(t.balanceAfter) },
          {
            label: 'Source',
            render: (t) =>
              t.referenceType === 'invoice' && t.referenceId && allowed('sales.read') ? (
                <Link to={`/invoices/${t.referenceId}`}>Invoice</Link>
              ) : (
                (t.referenceType ?? '—')
              ),
          },
        ],
      }}
    />
  );
}

export default function MemberScreen({ params }: ScreenProps) {
  const id = params.id!;
  const load = useLoad(
    () => unwrap(api.value.loyalty.members.getMember({ params: { publicId: id } })).then((r) => r.data),
    [id],
  );
  const tiers = useLoad(async () => (await unwrap(api.value.loyalty.tiers.listTiers())).data, []);
  const [version, setVersion] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);

  if (!load.data) {
    return (
      <RecordUnavailable title="Member" load={load} list={{ to: '/loyalty/members', name: 'Members' }} />
    );
  }
  const member = load.data;
  const changed = (message: string) => {
    setNotice(message);
    setVersion((v) => v + 1);
    load.reload();
  };
  return (
    <>
      <p class="breadcrumb">
        <Link to="/loyalty/members">Members</Link>
      </p>
      <PageHeader title={member.customerName}>
        {can('updateMember') ? <Button onClick={() => setEditing(true)}>Change tier or status</Button> : null}
        {can('deleteMember') ? (
          <ConfirmButton
            label="Remove member"
            title={`Remove ${member.customerName} from the program?`}
            confirmLabel="Remove member"
            onConfirm={async () => {
              await unwrap(api.value.loyalty.members.deleteMember({ params: { publicId: id } }));
              navigate('/loyalty/members');
            }}
          >
            <p>The membership ends; its transactions and redemptions are kept. The customer stays.</p>
          </ConfirmButton>
        ) : null}
      </PageHeader>
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      <div class="tiles">
        <section class="tile" aria-labelledby="member-balance">
          <h2 id="member-balance">Balance</h2>
          <p class="figure">{number(member.pointsBalance)}</p>
          <p class="hint">{number(member.lifetimePoints)} earned in all</p>
        </section>
        <section class="tile" aria-labelledby="member-about">
          <h2 id="member-about">Member</h2>
          <dl class="facts">
            <dt>Tier</dt>
            <dd>{member.tierName ?? 'None'}</dd>
            <dt>Status</dt>
            <dd>
              <Badge value={member.status} />
            </dd>
            <dt>Email</dt>
            <dd>{member.customerEmail ?? '—'}</dd>
            <dt>Phone</dt>
            <dd>{member.customerPhone ?? '—'}</dd>
            <dt>Customer</dt>
            <dd>
              {allowed('customers.read') ? (
                <Link to={`/customers/${member.customerId}`}>Open the customer</Link>
              ) : (
                member.customerId
              )}
            </dd>
            <dt>Enrolled</dt>
            <dd>{dateTime(member.enrolledAt)}</dd>
          </dl>
        </section>
      </div>
      {can('adjustPoints') ? <AdjustPoints member={member} onDone={changed} /> : null}
      <Transactions member={member} version={version} />
      <p>
        <Link to={`/loyalty/redemptions?memberId=${encodeURIComponent(member.publicId)}`}>
          Redemptions of {member.customerName}
        </Link>
      </p>
      <Dialog title={`Change ${member.customerName}`} open={editing} onClose={() => setEditing(false)}>
        <EditMember
          member={member}
          tiers={tiers.data ?? []}
          onCancel={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            changed('Member saved.');
          }}
        />
      </Dialog>
    </>
  );
}
