import { useState } from 'preact/hooks';
import { contract, loyalty, unwrap } from '../../../client/index.js';
import { ListPage } from '../../components/list-page.js';
import { Badge, Field, Select } from '../../components/ui.js';
import { number } from '../../lib/format.js';
import { useDraft, useForm } from '../../lib/forms.js';
import { useWholeList } from '../../lib/list-query.js';
import { decimalOf, integerOf } from '../../lib/numbers.js';
import type { ScreenProps } from '../../lib/screen.js';
import { api, can } from '../../lib/api.js';
import {
  actionsColumn,
  activeFilter,
  nameColumn,
  RowDialogs,
  RowForm,
  saveRow,
  useRowEditing,
} from './editable.js';

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
  const rewards = api.value.loyalty.rewards;
  return (
    <RowForm
      form={form}
      noun="reward"
      adding={!r}
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
        void saveRow(
          form,
          r,
          input,
          [loyalty.CreateRewardBodySchema, (body) => unwrap(rewards.createReward({ body }))],
          [
            loyalty.UpdateRewardBodySchema,
            (body, publicId) => unwrap(rewards.updateReward({ params: { publicId }, body })),
          ],
        ).then((ok) => ok !== undefined && props.onSaved(draft.name.trim()));
      }}
      described={{
        description: bind('description', form.errors),
        active,
        setActive,
        words: 'Offered to members',
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
    </RowForm>
  );
}

export default function Rewards(_props: ScreenProps) {
  const offered = activeFilter('offered', {
    label: 'Rewards shown',
    yes: 'Offered',
    no: 'Withdrawn',
    noneYes: 'No reward is offered',
    noneNo: 'No withdrawn rewards',
    show: 'Show every reward',
  });
  const list = useWholeList(
    () => api.value.loyalty.rewards.listRewards({ query: offered.query }),
    (answer) => answer.data,
    [offered.shown],
  );
  const state = useRowEditing<Reward>();
  const actions = can('updateReward') || can('deleteReward');
  return (
    <>
      <ListPage
        title="Rewards"
        export={{ route: contract.loyalty.rewards.listRewards, query: offered.query }}
        create={{ operation: 'createReward', label: 'Add reward', onClick: () => state.setEditing('new') }}
        tabs={offered.tabs}
        notice={state.notice}
        list={list}
        filtered={offered.filtered}
        empty={{
          title: 'No rewards yet',
          canAdd: 'Add what members can spend their points on: a free coffee, 10% off, a service.',
          cannotAdd: 'Rewards appear here once someone with loyalty permissions adds them.',
        }}
        table={{
          caption: 'Rewards',
          rowKey: (r) => r.publicId,
          columns: [
            nameColumn('Reward'),
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
              onEdit: can('updateReward') ? state.setEditing : undefined,
              onDelete: can('deleteReward') ? state.setDeleting : undefined,
            }),
          ],
        }}
      />
      <RowDialogs
        state={state}
        reload={list.reload}
        addTitle="Add a reward"
        form={(reward, onSaved, onCancel) => (
          <RewardForm reward={reward} onSaved={onSaved} onCancel={onCancel} />
        )}
        remove={{
          label: 'Delete reward',
          words: <p>Members can no longer redeem it; vouchers already issued for it stay valid.</p>,
          send: (publicId) => unwrap(api.value.loyalty.rewards.deleteReward({ params: { publicId } })),
        }}
      />
    </>
  );
}
