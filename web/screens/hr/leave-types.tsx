import { useState } from 'preact/hooks';
import { contract, hr, unwrap } from '../../../client/index.js';
import { EditDialog, rowActions, useEditing } from '../../components/edit-dialog.js';
import { DialogForm } from '../../components/form-dialog.js';
import { ListPage } from '../../components/list-page.js';
import { Field, Link, Select, type Column } from '../../components/ui.js';
import { api, can } from '../../lib/api.js';
import { useDraft, useForm } from '../../lib/forms.js';
import { usePagedList } from '../../lib/list-query.js';
import { decimalOf } from '../../lib/numbers.js';
import { conflictOn } from '../../lib/refusals.js';
import { daysText } from './days.js';
import { leaveTypeLabel } from './people.js';

/**
 * Leave types: the five every business starts with and its own, each paid or not, and tracked when
 * it has a policy (days a year, how they accrue, how many carry over into the next year): employees
 * then have a balance of it, and a request beyond the balance is refused unless the type allows going
 * below zero. Added, their policy set or removed, and deleted (refused while a request names the type).
 */

const LIMIT = 50;

const ACCRUAL_LABELS: Record<hr.Accrual, string> = {
  yearly: 'Yearly: the whole year on 1 January',
  monthly: 'Monthly: a twelfth on the first of each month',
  none: 'None: only what is carried over',
};

const ACCRUAL_SHORT: Record<hr.Accrual, string> = {
  yearly: 'all on 1 January',
  monthly: 'accrued monthly',
  none: 'no accrual',
};

/** A type as the list and its dialogs name it: "Annual leave" for `annual`, a business's own by its name. */
interface Row {
  name: string;
  type: hr.LeaveType;
}

/** The policy in words: "25 days a year, accrued monthly" and what carries over; "Not tracked" without one. */
function Policy(props: { type: hr.LeaveType }) {
  const { type } = props;
  if (!type.tracked || type.days_per_year === null) return <span class="muted">Not tracked</span>;
  return (
    <>
      {daysText(type.days_per_year)} a year, {ACCRUAL_SHORT[type.accrual ?? 'yearly']}
      <span class="line muted">
        {type.carry_over_max ? `Up to ${daysText(type.carry_over_max)} carried over` : 'Nothing carried over'}
      </span>
    </>
  );
}

function LeaveTypeForm(props: {
  type?: hr.LeaveType;
  onSaved: (type: hr.LeaveType) => void;
  onCancel: () => void;
}) {
  const existing = props.type;
  const { draft, bind } = useDraft(() => ({
    name: existing?.name ?? '',
    days_per_year: existing?.days_per_year === null || !existing ? '' : String(existing.days_per_year),
    accrual: existing?.accrual ?? 'yearly',
    carry_over_max: existing?.carry_over_max === null || !existing ? '0' : String(existing.carry_over_max),
  }));
  const [paid, setPaid] = useState(existing?.paid ?? true);
  const [allowNegative, setAllowNegative] = useState(existing?.allow_negative ?? false);
  const [tracked, setTracked] = useState(existing?.tracked ?? false);
  const form = useForm();
  const e = form.errors;

  const submit = () => {
    const policy = {
      // An empty field is refused beside it rather than leaving the type untracked unseen.
      days_per_year: decimalOf(draft.days_per_year) ?? '',
      accrual: draft.accrual,
      carry_over_max: decimalOf(draft.carry_over_max) ?? 0,
    };
    const types = api.value.hr.leaveTypes;
    const saving = existing
      ? form.submit(
          hr.UpdateLeaveTypeBodySchema,
          {
            ...(draft.name.trim() !== existing.name ? { name: draft.name } : {}),
            paid,
            allow_negative: allowNegative,
            ...(tracked ? policy : { days_per_year: null }),
          },
          (body) =>
            conflictOn('name', unwrap(types.updateLeaveType({ params: { id: existing.id }, body }))).then(
              (r) => r.leave_type,
            ),
        )
      : form.submit(
          hr.CreateLeaveTypeBodySchema,
          { name: draft.name, paid, allow_negative: allowNegative, ...(tracked ? policy : {}) },
          (body) => conflictOn('name', unwrap(types.createLeaveType({ body }))).then((r) => r.leave_type),
        );
    void saving.then((saved) => {
      if (saved) props.onSaved(saved);
    });
  };

  return (
    <DialogForm
      form={form}
      submit={existing ? 'Save changes' : 'Add leave type'}
      onCancel={props.onCancel}
      onSubmit={submit}
      class="leave-type-form"
    >
      <Field
        label="Name"
        autoComplete="off"
        {...bind('name', e)}
        hint="What a leave request names as its type (study, compassionate, …)."
        required
      />
      <label class="checkbox">
        <input
          type="checkbox"
          name="paid"
          checked={paid}
          onChange={(ev) => setPaid(ev.currentTarget.checked)}
        />
        Paid leave
      </label>
      <label class="checkbox">
        <input
          type="checkbox"
          name="tracked"
          checked={tracked}
          onChange={(ev) => setTracked(ev.currentTarget.checked)}
        />
        Keep a balance (tracked)
      </label>
      {tracked ? (
        <fieldset class="choice leave-policy">
          <legend>Policy</legend>
          <div class="form-row">
            <Field
              label="Days a year"
              type="number"
              min={0}
              max={366}
              step={0.5}
              inputMode="decimal"
              {...bind('days_per_year', e)}
              hint="Employees may have their own, set on their page."
              required
            />
            <Field
              label="Carried over at most (days)"
              type="number"
              min={0}
              max={366}
              step={0.5}
              inputMode="decimal"
              {...bind('carry_over_max', e)}
              hint="Of a year's remaining balance, into the next; 0: none."
            />
          </div>
          <Select
            label="Accrual"
            {...bind('accrual', e)}
            options={hr.ACCRUALS.map((a) => ({ value: a, label: ACCRUAL_LABELS[a] }))}
          />
          <label class="checkbox">
            <input
              type="checkbox"
              name="allow_negative"
              checked={allowNegative}
              onChange={(ev) => setAllowNegative(ev.currentTarget.checked)}
            />
            Allow the balance to go below zero
          </label>
          {!allowNegative ? (
            <p class="hint">A request beyond the employee's remaining balance is refused.</p>
          ) : null}
        </fieldset>
      ) : existing?.tracked ? (
        <p class="hint">
          Saved without a policy, the type is no longer tracked: no balance is kept and no request is refused
          for lack of one. Employees' own entitlements to it no longer count.
        </p>
      ) : (
        <p class="hint">Without a policy the type is not tracked: no balance is kept.</p>
      )}
    </DialogForm>
  );
}

export default function LeaveTypes() {
  const state = useEditing<Row>();
  const list = usePagedList(
    LIMIT,
    (paging) => api.value.hr.leaveTypes.listLeaveTypes({ query: paging }),
    (answer) => ({
      rows: answer.leave_types.map((type) => ({ name: leaveTypeLabel(type.name), type })),
      total: answer.total_count,
    }),
    [],
  );

  const columns: Column<Row>[] = [
    {
      label: 'Name',
      render: ({ name, type }) => (
        <>
          {name}
          {name !== type.name ? <span class="line muted">{type.name}</span> : null}
        </>
      ),
    },
    { label: 'Paid', render: ({ type }) => (type.paid ? 'Paid' : 'Unpaid') },
    { label: 'Policy', render: ({ type }) => <Policy type={type} /> },
    {
      label: 'Below zero',
      render: ({ type }) =>
        !type.tracked ? <span class="muted">—</span> : type.allow_negative ? 'Allowed' : 'Refused',
    },
    ...rowActions(state, {
      edit: can('updateLeaveType'),
      remove: can('deleteLeaveType')
        ? {
            label: 'Delete leave type',
            words: ({ name }) => (
              <p>
                {name} is removed for good. A type that a leave request names, of any status, cannot be
                deleted: the service refuses it.
              </p>
            ),
            send: ({ type }) => unwrap(api.value.hr.leaveTypes.deleteLeaveType({ params: { id: type.id } })),
            reload: list.reload,
          }
        : undefined,
    }),
  ];

  return (
    <div class="whole-words">
      <ListPage
        title="Leave types"
        export={{ route: contract.hr.leaveTypes.listLeaveTypes }}
        create={{
          operation: 'createLeaveType',
          label: 'New leave type',
          onClick: () => {
            state.setNotice(null);
            state.setEditing('new');
          },
        }}
        lead={
          <>
            A leave request names one of these types. A type with a policy is tracked: each employee has a
            balance of it for the year, and a request beyond the balance is refused unless the type allows
            going below zero. Working days leave out weekends and the{' '}
            <Link to="/hr/holidays">public holidays</Link>.
          </>
        }
        notice={state.notice}
        list={list}
        empty={{
          title: 'No leave types',
          canAdd: 'Add one with New leave type: every leave request names its type.',
          cannotAdd: 'Leave types appear here once someone with permission to add them does so.',
        }}
        table={{ caption: 'Leave types', columns, rowKey: ({ type }) => type.id }}
      />
      <EditDialog
        state={state}
        addTitle="New leave type"
        form={(row) => (
          <LeaveTypeForm
            type={row?.type}
            onCancel={state.close}
            onSaved={(saved) => state.saved(leaveTypeLabel(saved.name), list.reload)}
          />
        )}
      />
    </div>
  );
}
