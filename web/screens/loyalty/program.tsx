import { useState } from 'preact/hooks';
import { contract, loyalty, unwrap } from '../../../client/index.js';
import { ConfirmButton } from '../../components/confirm.js';
import { ExportButton } from '../../components/csv.js';
import { ListSection } from '../../components/list-page.js';
import { RecordUnavailable } from '../../components/record.js';
import {
  Badge,
  Button,
  Dialog,
  Empty,
  ErrorMessage,
  Field,
  Notice,
  PageHeader,
  Select,
} from '../../components/ui.js';
import { currencyOptions, useBaseCurrency } from '../../lib/currencies.js';
import { dateTime, number } from '../../lib/format.js';
import { useDraft, useForm, useLoad } from '../../lib/forms.js';
import { listOf } from '../../lib/list-query.js';
import { conflictOn, summaryOf } from '../../lib/refusals.js';
import { api, can } from '../../lib/api.js';
import type { ScreenProps } from '../../lib/screen.js';
import { useAction } from '../../lib/action.js';
import { decimalOf, integerOf } from '../../lib/numbers.js';
import { TierName } from './tier-name.js';
import { actionsColumn, RowDialogs, RowForm, saveRow, useRowEditing } from './editable.js';

/**
 * The loyalty program: created once, its earning rule and expiry edited, switched off and on; its
 * tiers with the lifetime points that reach each and their earning multiplier.
 */

type Program = loyalty.Program;
type Tier = loyalty.Tier;

const ENROLLMENT = [
  { value: 'automatic', label: 'Automatic: every customer who buys' },
  { value: 'manual', label: 'Manual: enrolled from the members list' },
];

function ProgramForm(props: { program: Program | null; onSaved: () => void; onCancel?: () => void }) {
  const p = props.program;
  const base = useBaseCurrency();
  const { draft, bind } = useDraft(() => ({
    name: p?.name ?? '',
    pointsName: p?.pointsName ?? 'Points',
    pointsPerCurrency: String(p?.pointsPerCurrency ?? 1),
    currency: p?.currency ?? '',
    enrollmentType: p?.enrollmentType ?? 'automatic',
    pointsExpiryDays: String(p?.pointsExpiryDays ?? 0),
  }));
  const [autoNotify, setAutoNotify] = useState(p?.autoNotify ?? true);
  const form = useForm();
  const e = form.errors;
  const common = {
    name: draft.name,
    pointsName: draft.pointsName,
    pointsPerCurrency: integerOf(draft.pointsPerCurrency),
    enrollmentType: draft.enrollmentType,
    pointsExpiryDays: integerOf(draft.pointsExpiryDays),
    autoNotify,
  };
  const program = api.value.loyalty.program;
  const submit = (event: Event) => {
    event.preventDefault();
    const sent = p
      ? form.submit(loyalty.UpdateProgramBodySchema, common, (body) =>
          unwrap(program.updateProgram({ body })),
        )
      : form.submit(
          loyalty.CreateProgramBodySchema,
          { ...common, currency: draft.currency || base.currency },
          (body) => unwrap(program.createProgram({ body })),
        );
    void sent.then((ok) => ok !== undefined && props.onSaved());
  };
  return (
    <form noValidate onSubmit={submit}>
      <div class="form-grid">
        <Field label="Program name" {...bind('name', e)} required />
        <Field label="Points are called" {...bind('pointsName', e)} hint="Stars, Beans, Miles…" />
        <Field
          label="Points per unit of currency"
          type="number"
          min={1}
          inputMode="numeric"
          {...bind('pointsPerCurrency', e)}
          hint="Earned per whole unit spent, before a tier's multiplier"
        />
        {p ? null : (
          <Select
            label="Currency"
            {...bind('currency', e)}
            value={draft.currency || base.currency}
            options={currencyOptions()}
          />
        )}
        <Select label="Enrollment" {...bind('enrollmentType', e)} options={ENROLLMENT} />
        <Field
          label="Points expire after (days)"
          type="number"
          min={0}
          inputMode="numeric"
          {...bind('pointsExpiryDays', e)}
          hint="0: points never expire"
        />
      </div>
      <label class="checkbox">
        <input
          type="checkbox"
          checked={autoNotify}
          onChange={(event) => setAutoNotify(event.currentTarget.checked)}
        />
        Email members when they earn points or reach a tier
      </label>
      <ErrorMessage message={summaryOf(form)} />
      <div class="form-actions">
        <Button type="submit" kind="primary" busy={form.busy}>
          {p ? 'Save program' : 'Create program'}
        </Button>
        {props.onCancel ? <Button onClick={props.onCancel}>Cancel</Button> : null}
      </div>
    </form>
  );
}

function TierForm(props: { tier: Tier | null; onSaved: (name: string) => void; onCancel: () => void }) {
  const t = props.tier;
  const { draft, set, bind } = useDraft(() => ({
    name: t?.name ?? '',
    minPoints: t ? String(t.minPoints) : '',
    color: t?.color ?? '#808080',
    multiplier: t ? String(t.multiplier) : '1',
    sortOrder: t ? String(t.sortOrder) : '',
  }));
  const form = useForm();
  const e = form.errors;
  const tiers = api.value.loyalty.tiers;
  return (
    <RowForm
      form={form}
      noun="tier"
      adding={!t}
      onCancel={props.onCancel}
      onSubmit={() => {
        const input = {
          name: draft.name,
          minPoints: integerOf(draft.minPoints),
          color: draft.color,
          multiplier: decimalOf(draft.multiplier),
          sortOrder: integerOf(draft.sortOrder),
        };
        void saveRow(
          form,
          t,
          input,
          [loyalty.CreateTierBodySchema, (body) => conflictOn('name', unwrap(tiers.createTier({ body })))],
          [
            loyalty.UpdateTierBodySchema,
            (body, publicId) => conflictOn('name', unwrap(tiers.updateTier({ params: { publicId }, body }))),
          ],
        ).then((ok) => ok !== undefined && props.onSaved(draft.name.trim()));
      }}
    >
      <Field label="Tier name" {...bind('name', e)} required />
      <div class="form-grid">
        <Field
          label="Lifetime points to reach it"
          type="number"
          min={0}
          inputMode="numeric"
          {...bind('minPoints', e)}
          required
        />
        <Field
          label="Earning multiplier"
          type="number"
          min={0.1}
          max={10}
          step={0.01}
          inputMode="decimal"
          {...bind('multiplier', e)}
          hint="1.5 earns half as much again"
        />
        <div class={`field${e.color ? ' invalid' : ''}`}>
          <label for="tier-color">Colour</label>
          <input
            id="tier-color"
            type="color"
            name="color"
            value={draft.color}
            onInput={(event) => set('color')(event.currentTarget.value)}
          />
          {e.color ? (
            <small class="error" role="alert">
              {e.color}
            </small>
          ) : null}
        </div>
        <Field label="Display order" type="number" min={0} inputMode="numeric" {...bind('sortOrder', e)} />
      </div>
    </RowForm>
  );
}

function Tiers(props: { program: Program }) {
  const tiers = useLoad(async () => (await unwrap(api.value.loyalty.tiers.listTiers())).data, []);
  const state = useRowEditing<Tier>();
  const writable = can('updateTier') || can('deleteTier');
  return (
    <>
      <ListSection
        id="program-tiers"
        title="Tiers"
        actions={
          <div class="actions">
            <ExportButton route={contract.loyalty.tiers.listTiers} what="the tiers" />
            {can('createTier') ? (
              <Button kind="primary" onClick={() => state.setEditing('new')}>
                Add tier
              </Button>
            ) : null}
          </div>
        }
        list={listOf(tiers)}
        empty={{
          title: 'No tiers',
          children: (
            <p>
              Tiers reward loyal members: each starts at a number of lifetime{' '}
              {props.program.pointsName.toLowerCase()} and can multiply what they earn. Add the first with Add
              tier.
            </p>
          ),
        }}
        table={{
          caption: 'Tiers',
          rowKey: (t) => t.publicId,
          columns: [
            { label: 'Tier', render: (t) => <TierName name={t.name} color={t.color} /> },
            { label: 'From lifetime points', numeric: true, render: (t) => number(t.minPoints) },
            { label: 'Multiplier', numeric: true, render: (t) => `×${t.multiplier}` },
            { label: 'Order', numeric: true, render: (t) => t.sortOrder },
            ...actionsColumn<Tier>({
              show: writable,
              onEdit: can('updateTier') ? state.setEditing : undefined,
              onDelete: can('deleteTier') ? state.setDeleting : undefined,
            }),
          ],
        }}
      />
      <RowDialogs
        state={state}
        reload={tiers.reload}
        addTitle="Add a tier"
        form={(tier, onSaved, onCancel) => <TierForm tier={tier} onSaved={onSaved} onCancel={onCancel} />}
        remove={{
          title: (tier) => `Delete the ${tier.name} tier?`,
          label: 'Delete tier',
          words: <p>Its members move to the next lower tier, or to no tier when it is the lowest.</p>,
          send: (publicId) => unwrap(api.value.loyalty.tiers.deleteTier({ params: { publicId } })),
        }}
      />
    </>
  );
}

export default function ProgramScreen(_props: ScreenProps) {
  const load = useLoad(async () => (await unwrap(api.value.loyalty.program.getProgram())).data, []);
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const toggling = useAction();

  if (load.error || load.data === undefined) return <RecordUnavailable load={load} title="Loyalty program" />;
  const program = load.data;
  if (!program) {
    return (
      <>
        <PageHeader title="Loyalty program" />
        {can('createProgram') ? (
          <section class="panel" aria-labelledby="new-program">
            <h2 id="new-program">Start a loyalty program</h2>
            <p class="hint">
              Customers earn points on what they buy, climb tiers and spend points on rewards. One program per
              business.
            </p>
            <ProgramForm program={null} onSaved={load.reload} />
          </section>
        ) : (
          <Empty title="No loyalty program yet">
            <p>Someone with loyalty permissions can start one here.</p>
          </Empty>
        )}
      </>
    );
  }
  const toggle = () =>
    void toggling.run(
      () => unwrap(api.value.loyalty.program.updateProgram({ body: { isActive: !program.isActive } })),
      () => {
        setNotice(program.isActive ? 'The program is switched off.' : 'The program is active again.');
        load.reload();
      },
    );
  return (
    <>
      <PageHeader title={program.name}>
        {can('updateProgram') ? (
          <>
            <Button onClick={() => setEditing(true)}>Edit program</Button>
            <Button busy={toggling.busy} onClick={toggle}>
              {program.isActive ? 'Switch off' : 'Switch on'}
            </Button>
          </>
        ) : null}
        {can('deleteProgram') ? (
          <ConfirmButton
            label="Delete program"
            title="Delete the loyalty program?"
            confirmLabel="Delete program"
            onConfirm={async () => {
              await unwrap(api.value.loyalty.program.deleteProgram({}));
              load.reload();
            }}
          >
            <p>
              The program is switched off and its tiers removed. Members, their points and redemptions stay.
            </p>
          </ConfirmButton>
        ) : null}
      </PageHeader>
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      <ErrorMessage message={toggling.error} />
      <section class="panel" aria-labelledby="program-rules">
        <h2 id="program-rules">Rules</h2>
        <dl class="facts">
          <dt>Status</dt>
          <dd>
            <Badge value={program.isActive ? 'active' : 'disabled'} />
          </dd>
          <dt>Earning</dt>
          <dd>
            {number(program.pointsPerCurrency)} {program.pointsName} per {program.currency} spent
          </dd>
          <dt>Enrollment</dt>
          <dd>{program.enrollmentType === 'automatic' ? 'Automatic' : 'Manual'}</dd>
          <dt>Expiry</dt>
          <dd>
            {program.pointsExpiryDays === 0 ? 'Never' : `After ${number(program.pointsExpiryDays)} days`}
          </dd>
          <dt>Member emails</dt>
          <dd>{program.autoNotify ? 'Sent' : 'Off'}</dd>
          <dt>Created</dt>
          <dd>{dateTime(program.dateCreated)}</dd>
        </dl>
      </section>
      <Tiers program={program} />
      <Dialog title="Edit the program" open={editing} onClose={() => setEditing(false)}>
        <ProgramForm
          program={program}
          onCancel={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            setNotice('Program saved.');
            load.reload();
          }}
        />
      </Dialog>
    </>
  );
}
