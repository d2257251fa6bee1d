import { useState } from 'preact/hooks';
import { contract, loyalty, unwrap } from '../../../client/index.js';
import { ConfirmDialog } from '../../components/confirm.js';
import { DialogForm } from '../../components/form-dialog.js';
import { ListPage } from '../../components/list-page.js';
import { Badge, Button, Link, Notice, Select, TextArea } from '../../components/ui.js';
import { dateTime, number } from '../../lib/format.js';
import { useForm, useLoad } from '../../lib/forms.js';
import { usePagedList } from '../../lib/list-query.js';
import { oneOf } from '../../lib/lists.js';
import { here, withQuery } from '../../lib/router.js';
import type { ScreenProps } from '../../lib/screen.js';
import { api, can } from '../../lib/api.js';
import { MemberPicker } from './member-picker.js';

/**
 * Redemptions: by status and member, paged from the URL; a pending one fulfilled when the reward is
 * handed over, or cancelled (its points refunded); a reward redeemed for a member.
 */

type Redemption = loyalty.Redemption;
const SIZE = 20;

function Redeem(props: { onDone: (r: Redemption) => void; onCancel: () => void }) {
  const [memberId, setMemberId] = useState('');
  const [rewardId, setRewardId] = useState('');
  const [notes, setNotes] = useState('');
  const rewards = useLoad(
    async () => (await unwrap(api.value.loyalty.rewards.listRewards({ query: { isActive: 'true' } }))).data,
    [],
  );
  const form = useForm();
  return (
    <DialogForm
      form={form}
      submit="Redeem"
      onCancel={props.onCancel}
      onSubmit={() => {
        void form
          .submit(
            loyalty.CreateRedemptionBodySchema,
            { memberId, rewardId, notes: notes.trim() || undefined },
            (body) => unwrap(api.value.loyalty.redemptions.createRedemption({ body })),
          )
          .then((answer) => answer && props.onDone(answer.data));
      }}
    >
      <MemberPicker
        value={memberId}
        onValue={setMemberId}
        error={form.errors.memberId && (memberId ? form.errors.memberId : 'Choose a member')}
      />
      <Select
        label="Reward"
        name="rewardId"
        value={rewardId}
        options={[
          { value: '', label: rewards.data?.length ? 'Choose a reward' : 'No reward is offered' },
          ...(rewards.data ?? []).map((r) => ({
            value: r.publicId,
            label: `${r.name}: ${number(r.pointsCost)} points`,
          })),
        ]}
        onValue={setRewardId}
        error={form.errors.rewardId && (rewardId ? form.errors.rewardId : 'Choose a reward')}
      />
      <TextArea label="Notes" name="notes" value={notes} onValue={setNotes} error={form.errors.notes} />
    </DialogForm>
  );
}

export default function Redemptions(_props: ScreenProps) {
  const query = here.value.query;
  const status = oneOf(query, 'status', loyalty.REDEMPTION_STATUSES);
  const memberId = query.get('memberId') || undefined;
  const [moving, setMoving] = useState<{ redemption: Redemption; to: 'fulfilled' | 'cancelled' } | null>(
    null,
  );
  const [notice, setNotice] = useState<string | null>(null);
  const list = usePagedList(
    SIZE,
    (paging) => api.value.loyalty.redemptions.listRedemptions({ query: { status, memberId, ...paging } }),
    (answer) => ({ rows: answer.data, total: answer.totalCount }),
    [status, memberId],
  );
  const canMove = can('updateRedemption');
  return (
    <>
      <ListPage
        title="Redemptions"
        export={{ route: contract.loyalty.redemptions.listRedemptions, query: { status, memberId } }}
        create={{
          operation: 'createRedemption',
          label: 'Redeem a reward',
          form: (close) => (
            <Redeem
              onCancel={close}
              onDone={(r) => {
                close();
                setNotice(`${r.rewardName} redeemed for ${r.memberName}: voucher ${r.voucherCode}.`);
                list.reload();
              }}
            />
          ),
        }}
        tabs={{ label: 'Redemption status', values: loyalty.REDEMPTION_STATUSES, current: status }}
        filters={
          memberId ? (
            <Notice>
              Redemptions of one member.{' '}
              <Link to={withQuery({ memberId: null, page: null })}>Show every member’s</Link>
            </Notice>
          ) : null
        }
        notice={notice}
        list={list}
        filtered={{
          active: !!(status || memberId),
          title: status ? `No ${status} redemptions` : 'No redemptions of this member',
          clear: ['status', 'memberId'],
          show: 'Show every redemption',
        }}
        empty={{
          title: 'No redemptions yet',
          children: (
            <p>
              When a member spends points on a <Link to="/loyalty/rewards">reward</Link> a voucher is issued
              and listed here until it is fulfilled.
            </p>
          ),
        }}
        table={{
          caption: 'Redemptions',
          rowKey: (r) => r.publicId,
          columns: [
            { label: 'Voucher', render: (r) => <code>{r.voucherCode}</code> },
            {
              label: 'Member',
              render: (r) => <Link to={`/loyalty/members/${r.memberId}`}>{r.memberName}</Link>,
            },
            { label: 'Reward', render: (r) => r.rewardName },
            { label: 'Points', numeric: true, render: (r) => number(r.pointsSpent) },
            { label: 'Status', render: (r) => <Badge value={r.status} /> },
            { label: 'Redeemed', render: (r) => dateTime(r.redeemedAt) },
            {
              label: 'Fulfilled or expires',
              render: (r) => (r.fulfilledAt ? dateTime(r.fulfilledAt) : `Expires ${dateTime(r.expiresAt)}`),
            },
            ...(canMove
              ? [
                  {
                    label: 'Actions',
                    render: (r: Redemption) =>
                      r.status === 'pending' ? (
                        <div class="row-actions">
                          <Button
                            kind="primary"
                            onClick={() => setMoving({ redemption: r, to: 'fulfilled' })}
                          >
                            Fulfil<span class="visually-hidden"> {r.voucherCode}</span>
                          </Button>
                          <Button kind="danger" onClick={() => setMoving({ redemption: r, to: 'cancelled' })}>
                            Cancel<span class="visually-hidden"> {r.voucherCode}</span>
                          </Button>
                        </div>
                      ) : (
                        '—'
                      ),
                  },
                ]
              : []),
          ],
        }}
      />
      {moving ? (
        <ConfirmDialog
          open
          kind={moving.to === 'fulfilled' ? 'primary' : 'danger'}
          title={
            moving.to === 'fulfilled'
              ? `Fulfil voucher ${moving.redemption.voucherCode}?`
              : `Cancel voucher ${moving.redemption.voucherCode}?`
          }
          confirmLabel={moving.to === 'fulfilled' ? 'Mark fulfilled' : 'Cancel and refund'}
          onClose={() => setMoving(null)}
          onConfirm={async () => {
            const { redemption, to } = moving;
            await unwrap(
              api.value.loyalty.redemptions.updateRedemption({
                params: { publicId: redemption.publicId },
                body: { status: to },
              }),
            );
            setNotice(
              to === 'fulfilled'
                ? `${redemption.rewardName} for ${redemption.memberName} is fulfilled.`
                : `Cancelled: ${number(redemption.pointsSpent)} points went back to ${redemption.memberName}.`,
            );
            list.reload();
          }}
        >
          <p>
            {moving.to === 'fulfilled'
              ? `${moving.redemption.rewardName} was handed to ${moving.redemption.memberName}; the voucher cannot be used again.`
              : `The voucher stops working and ${number(moving.redemption.pointsSpent)} points go back to ${moving.redemption.memberName}.`}
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
