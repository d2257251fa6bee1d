import { useState } from 'preact/hooks';
import { contract, loyalty, unwrap } from '../../../client/index.js';
import { ConfirmDialog } from '../../components/confirm.js';
import { DialogForm } from '../../components/form-dialog.js';
import { ListPage } from '../../components/list-page.js';
import { Badge, Field, Select, TextArea } from '../../components/ui.js';
import { number } from '../../lib/format.js';
import { useDraft, useForm } from '../../lib/forms.js';
import { useWholeList } from '../../lib/list-query.js';
import { oneOf } from '../../lib/lists.js';
import { decimalOf, integerOf } from '../../lib/numbers.js';
import { here } from '../../lib/router.js';
import type { ScreenProps } from '../../lib/screen.js';
import { api, can } from '../../lib/session.js';
import { actionsColumn, EditDialog } from './editable.js';

/** Rewards members spend points on: listed by whether they are offered, added, edited, withdrawn. */

type Reward = loyalty.Reward;

const TYPE_NAMES: Record<Reward['rewardType'], string> = {
  discount: 'Discount',
  service: 'Service',
  product: 'Product',
  voucher: 'Voucher',
};

function RewardForm(props: { reward: Reward | null; onSaved: (name: string) => void; onCancel: () => void }) {
  const r = props.reward;
  const { draft, bind } = useDraft(() => ({
    name: r?.name ?? '',
    pointsCost: r ? String(r.pointsCost) : '',
    rewardType: r?.rewardType ?? 'product',
    discountPercent: r?.discountPercent != null ? String(r.discountPercent) : '',
    voucherValidityDays: r ? String(r.voucherValidityDays) : '90',
    description: r?.description ?? '',
  }));
  const discounts = draft.rewardType === 'discount';
  const [active, setActive] = useState(r?.isActive ?? true);
  const form = useForm();
  return (
    <DialogForm
      form={form}
      submit={r ? 'Save reward' : 'Add reward'}
      onCancel={props.onCancel}
      onSubmit={() => {
        const input = {
          ...draft,
          pointsCost: integerOf(draft.pointsCost),
          discountPercent: discounts ? decimalOf(draft.discountPercent) : undefined,
          voucherValidityDays: integerOf(draft.voucherValidityDays),
          description: draft.description.trim() || undefined,
          isActive: active,
        };
        const send = r
          ? form.submit(loyalty.UpdateRewardBodySchema, input, (body) =>
              unwrap(api.value.loyalty.rewards.updateReward({ params: { publicId: r.publicId }, body })),
            )
          : form.submit(loyalty.CreateRewardBodySchema, input, (body) =>
              unwrap(api.value.loyalty.rewards.createReward({ body })),
            );
        void send.then((ok) => ok !== undefined && props.onSaved(draft.name.trim()));
      }}
    >
      <Field label="Name" {...bind('name', form.errors)} required />
      <div class="form-grid">
        <Field
          label="Points cost"
          type="number"
          min={1}
          inputMode="numeric"
          {...bind('pointsCost', form.errors)}
          required
        />
        <Select
          label="Type"
          {...bind('rewardType', form.errors)}
          options={loyalty.REWARD_TYPES.map((t) => ({ value: t, label: TYPE_NAMES[t] }))}
        />
        {discounts ? (
          <Field
            label="Discount (%)"
            type="number"
            min={0}
            max={100}
            step="any"
            inputMode="decimal"
            {...bind('discountPercent', form.errors)}
            required
          />
        ) : null}
        <Field
          label="Voucher valid for (days)"
          type="number"
          min={1}
          inputMode="numeric"
          {...bind('voucherValidityDays', form.errors)}
        />
      </div>
      <TextArea label="Description" {...bind('description', form.errors)} />
      <label class="checkbox">
        <input type="checkbox" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
        Offered to members
      </label>
    </DialogForm>
  );
}

export default function Rewards(_props: ScreenProps) {
  const shown = oneOf(here.value.query, 'offered', ['yes', 'no'] as const);
  const filters = { isActive: shown === undefined ? undefined : shown === 'yes' ? 'true' : 'false' } as const;
  const list = useWholeList(
    () => api.value.loyalty.rewards.listRewards({ query: filters }),
    (answer) => answer.data,
    [shown],
  );
  const [editing, setEditing] = useState<Reward | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Reward | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const actions = can('updateReward') || can('deleteReward');
  return (
    <>
      <ListPage
        title="Rewards"
        export={{ route: contract.loyalty.rewards.listRewards, query: filters }}
        create={{ operation: 'createReward', label: 'Add reward', onClick: () => setEditing('new') }}
        tabs={{
          label: 'Rewards shown',
          param: 'offered',
          values: ['yes', 'no'],
          names: { yes: 'Offered', no: 'Withdrawn' },
          current: shown,
        }}
        notice={notice}
        list={list}
        filtered={{
          active: !!shown,
          title: shown === 'yes' ? 'No reward is offered' : 'No withdrawn rewards',
          clear: ['offered'],
          show: 'Show every reward',
        }}
        empty={{
          title: 'No rewards yet',
          canAdd: 'Add what members can spend their points on: a free coffee, 10% off, a service.',
          cannotAdd: 'Rewards appear here once someone with loyalty permissions adds them.',
        }}
        table={{
          caption: 'Rewards',
          rowKey: (r) => r.publicId,
          columns: [
            {
              label: 'Reward',
              render: (r) => (
                <>
                  {r.name}
                  {r.description ? <small class="hint block">{r.description}</small> : null}
                </>
              ),
            },
            {
              label: 'Type',
              render: (r) =>
                r.rewardType === 'discount' && r.discountPercent !== null
                  ? `${TYPE_NAMES.discount} ${r.discountPercent}%`
                  : TYPE_NAMES[r.rewardType],
            },
            { label: 'Cost', numeric: true, render: (r) => `${number(r.pointsCost)} points` },
            {
              label: 'Voucher valid',
              numeric: true,
              render: (r) => `${number(r.voucherValidityDays)} days`,
            },
            {
              label: 'Redeemed',
              numeric: true,
              render: (r) => (r.totalRedemptions > 0 ? number(r.totalRedemptions) : '0'),
            },
            { label: 'Status', render: (r) => <Badge value={r.isActive ? 'active' : 'disabled'} /> },
            ...actionsColumn<Reward>({
              show: actions,
              onEdit: can('updateReward') ? setEditing : undefined,
              onDelete: can('deleteReward') ? setDeleting : undefined,
            }),
          ],
        }}
      />
      <EditDialog editing={editing} addTitle="Add a reward" onClose={() => setEditing(null)}>
        <RewardForm
          key={editing === 'new' ? 'new' : editing?.publicId}
          reward={editing === 'new' ? null : editing}
          onCancel={() => setEditing(null)}
          onSaved={(name) => {
            setNotice(editing === 'new' ? `${name} was added.` : `${name} was saved.`);
            setEditing(null);
            list.reload();
          }}
        />
      </EditDialog>
      {deleting ? (
        <ConfirmDialog
          open
          title={`Delete ${deleting.name}?`}
          confirmLabel="Delete reward"
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await unwrap(api.value.loyalty.rewards.deleteReward({ params: { publicId: deleting.publicId } }));
            setNotice(`${deleting.name} was deleted.`);
            list.reload();
          }}
        >
          <p>Members can no longer redeem it; vouchers already issued for it stay valid.</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
