import { useState } from 'preact/hooks';
import { contract, loyalty, unwrap } from '../../../client/index.js';
import { ConfirmButton, ConfirmDialog } from '../../components/confirm.js';
import { ExportButton } from '../../components/csv.js';
import {
  Badge,
  Button,
  Dialog,
  Empty,
  ErrorMessage,
  Field,
  Loading,
  Notice,
  PageHeader,
  Select,
  Table,
} from '../../components/ui.js';
import { DialogForm } from '../../components/form-dialog.js';
import { currencyOptions, useBaseCurrency } from '../../lib/currencies.js';
import { dateTime, number } from '../../lib/format.js';
import { useForm, useLoad } from '../../lib/forms.js';
import { conflictOn, summaryOf } from '../../lib/refusals.js';
import { api, can } from '../../lib/session.js';
import type { ScreenProps } from '../../lib/screen.js';
import { useAction } from '../../lib/action.js';
import { decimalOf, integerOf } from '../../lib/numbers.js';
import { TierName } from './tier-name.js';
import { actionsColumn, EditDialog } from './editable.js';

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
  const [name, setName] = useState(p?.name ?? '');
  const [pointsName, setPointsName] = useState(p?.pointsName ?? 'Points');
  const [perCurrency, setPerCurrency] = useState(String(p?.pointsPerCurrency ?? 1));
  const [currency, setCurrency] = useState(p?.currency ?? '');
  const [enrollment, setEnrollment] = useState<string>(p?.enrollmentType ?? 'automatic');
  const [expiry, setExpiry] = useState(String(p?.pointsExpiryDays ?? 0));
  const [autoNotify, setAutoNotify] = useState(p?.autoNotify ?? true);
  const form = useForm();
  const common = {
    name,
    pointsName,
    pointsPerCurrency: integerOf(perCurrency),
    enrollmentType: enrollment,
    pointsExpiryDays: integerOf(expiry),
    autoNotify,
  };
  const submit = (e: Event) => {
    e.preventDefault();
    const done = (ok: unknown) => ok !== undefined && props.onSaved();
    if (p) {
      void form
        .submit(loyalty.UpdateProgramBodySchema, common, (body) =>
          unwrap(api.value.loyalty.program.updateProgram({ body })),
        )
        .then(done);
    } else {
      void form
        .submit(loyalty.CreateProgramBodySchema, { ...common, currency: currency || base.currency }, (body) =>
          unwrap(api.value.loyalty.program.createProgram({ body })),
        )
        .then(done);
    }
  };
  return (
    <form noValidate onSubmit={submit}>
      <div class="form-grid">
        <Field
          label="Program name"
          name="name"
          value={name}
          onValue={setName}
          error={form.errors.name}
          required
        />
        <Field
          label="Points are called"
          name="pointsName"
          value={pointsName}
          onValue={setPointsName}
          error={form.errors.pointsName}
          hint="Stars, Beans, Miles…"
        />
        <Field
          label="Points per unit of currency"
          name="pointsPerCurrency"
          type="number"
          min={1}
          inputMode="numeric"
          value={perCurrency}
          onValue={setPerCurrency}
          error={form.errors.pointsPerCurrency}
          hint="Earned per whole unit spent, before a tier's multiplier"
        />
        {p ? null : (
          <Select
            label="Currency"
            name="currency"
            value={currency || base.currency}
            options={currencyOptions()}
            onValue={setCurrency}
            error={form.errors.currency}
          />
        )}
        <Select
          label="Enrollment"
          name="enrollmentType"
          value={enrollment}
          options={ENROLLMENT}
          onValue={setEnrollment}
          error={form.errors.enrollmentType}
        />
        <Field
          label="Points expire after (days)"
          name="pointsExpiryDays"
          type="number"
          min={0}
          inputMode="numeric"
          value={expiry}
          onValue={setExpiry}
          error={form.errors.pointsExpiryDays}
          hint="0: points never expire"
        />
      </div>
      <label class="checkbox">
        <input
          type="checkbox"
          checked={autoNotify}
          onChange={(e) => setAutoNotify(e.currentTarget.checked)}
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

function TierForm(props: { tier: Tier | null; onSaved: () => void; onCancel: () => void }) {
  const t = props.tier;
  const [name, setName] = useState(t?.name ?? '');
  const [minPoints, setMinPoints] = useState(t ? String(t.minPoints) : '');
  const [color, setColor] = useState(t?.color ?? '#808080');
  const [multiplier, setMultiplier] = useState(t ? String(t.multiplier) : '1');
  const [sortOrder, setSortOrder] = useState(t ? String(t.sortOrder) : '');
  const form = useForm();
  return (
    <DialogForm
      form={form}
      submit={t ? 'Save tier' : 'Add tier'}
      onCancel={props.onCancel}
      onSubmit={() => {
        const input = {
          name,
          minPoints: integerOf(minPoints),
          color,
          multiplier: decimalOf(multiplier),
          sortOrder: integerOf(sortOrder),
        };
        const send = t
          ? form.submit(loyalty.UpdateTierBodySchema, input, (body) =>
              conflictOn(
                'name',
                unwrap(api.value.loyalty.tiers.updateTier({ params: { publicId: t.publicId }, body })),
              ),
            )
          : form.submit(loyalty.CreateTierBodySchema, input, (body) =>
              conflictOn('name', unwrap(api.value.loyalty.tiers.createTier({ body }))),
            );
        void send.then((ok) => ok !== undefined && props.onSaved());
      }}
    >
      <Field label="Tier name" name="name" value={name} onValue={setName} error={form.errors.name} required />
      <div class="form-grid">
        <Field
          label="Lifetime points to reach it"
          name="minPoints"
          type="number"
          min={0}
          inputMode="numeric"
          value={minPoints}
          onValue={setMinPoints}
          error={form.errors.minPoints}
          required
        />
        <Field
          label="Earning multiplier"
          name="multiplier"
          type="number"
          min={0.1}
          max={10}
          step={0.01}
          inputMode="decimal"
          value={multiplier}
          onValue={setMultiplier}
          error={form.errors.multiplier}
          hint="1.5 earns half as much again"
        />
        <div class={`field${form.errors.color ? ' invalid' : ''}`}>
          <label for="tier-color">Colour</label>
          <input
            id="tier-color"
            type="color"
            name="color"
            value={color}
            onInput={(e) => setColor(e.currentTarget.value)}
          />
          {form.errors.color ? (
            <small class="error" role="alert">
              {form.errors.color}
            </small>
          ) : null}
        </div>
        <Field
          label="Display order"
          name="sortOrder"
          type="number"
          min={0}
          inputMode="numeric"
          value={sortOrder}
          onValue={setSortOrder}
          error={form.errors.sortOrder}
        />
      </div>
    </DialogForm>
  );
}

function Tiers(props: { program: Program }) {
  const tiers = useLoad(async () => (await unwrap(api.value.loyalty.tiers.listTiers())).data, []);
  const [editing, setEditing] = useState<Tier | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Tier | null>(null);
  const writable = can('updateTier') || can('deleteTier');
  return (
    <section aria-labelledby="program-tiers">
      <div class="section-header">
        <h2 id="program-tiers">Tiers</h2>
        <div class="actions">
          <ExportButton route={contract.loyalty.tiers.listTiers} what="the tiers" />
          {can('createTier') ? (
            <Button kind="primary" onClick={() => setEditing('new')}>
              Add tier
            </Button>
          ) : null}
        </div>
      </div>
      {tiers.error ? (
        <ErrorMessage message={tiers.error} onRetry={tiers.reload} />
      ) : !tiers.data ? (
        <Loading />
      ) : tiers.data.length === 0 ? (
        <Empty title="No tiers">
          <p>
            Tiers reward loyal members: each starts at a number of lifetime{' '}
            {props.program.pointsName.toLowerCase()} and can multiply what they earn. Add the first with Add
            tier.
          </p>
        </Empty>
      ) : (
        <Table
          caption="Tiers"
          rows={tiers.data}
          rowKey={(t) => t.publicId}
          columns={[
            {
              label: 'Tier',
              render: (t) => <TierName name={t.name} color={t.color} />,
            },
            { label: 'From lifetime points', numeric: true, render: (t) => number(t.minPoints) },
            { label: 'Multiplier', numeric: true, render: (t) => `×${t.multiplier}` },
            { label: 'Order', numeric: true, render: (t) => t.sortOrder },
            ...actionsColumn<Tier>({
              show: writable,
              onEdit: can('updateTier') ? setEditing : undefined,
              onDelete: can('deleteTier') ? setDeleting : undefined,
            }),
          ]}
        />
      )}
      <EditDialog editing={editing} addTitle="Add a tier" onClose={() => setEditing(null)}>
        <TierForm
          tier={editing === 'new' ? null : editing}
          onCancel={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            tiers.reload();
          }}
        />
      </EditDialog>
      {deleting ? (
        <ConfirmDialog
          open
          title={`Delete the ${deleting.name} tier?`}
          confirmLabel="Delete tier"
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await unwrap(api.value.loyalty.tiers.deleteTier({ params: { publicId: deleting.publicId } }));
            tiers.reload();
          }}
        >
          <p>Its members move to the next lower tier, or to no tier when it is the lowest.</p>
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

export default function ProgramScreen(_props: ScreenProps) {
  const load = useLoad(async () => (await unwrap(api.value.loyalty.program.getProgram())).data, []);
  const [editing, setEditing] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const toggling = useAction();

  if (load.error) {
    return (
      <>
        <PageHeader title="Loyalty program" />
        <ErrorMessage message={load.error} onRetry={load.reload} />
      </>
    );
  }
  if (load.data === undefined) return <Loading />;
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
