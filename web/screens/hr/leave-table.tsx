import { useState } from 'preact/hooks';
import { hr, unwrap } from '../../../client/index.js';
import { useAction } from '../../lib/action.js';
import { date, number } from '../../lib/format.js';
import { useForm } from '../../lib/forms.js';
import { summaryOf } from '../../lib/refusals.js';
import { api, can } from '../../lib/api.js';
import { Badge, Button, Dialog, ErrorMessage, TextArea, type Column } from '../../components/ui.js';
import { ConfirmDialog } from '../../components/confirm.js';
import type { Outcome } from '../../components/outcome.js';
import { leaveTypeLabel } from './people.js';

/** A leave as a table shows it: its type, days and status, and its actions (approve, reject with a reason, cancel). */

function RejectButton(props: { leave: hr.Leave; onDone: (leave: hr.Leave, message: string) => void }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const form = useForm();
  const who = props.leave.employee_name;
  return (
    <>
      <Button
        aria-label={`Reject the leave of ${who} from ${date(props.leave.start_date)}`}
        onClick={() => setOpen(true)}
      >
        Reject
      </Button>
      <Dialog title={`Reject the leave of ${who}?`} open={open} onClose={() => setOpen(false)}>
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void form
              .submit(
                hr.UpdateLeaveBodySchema,
                { status: 'rejected', reason: reason.trim() || undefined },
                (body) => unwrap(api.value.hr.leaves.updateLeave({ params: { id: props.leave.id }, body })),
              )
              .then((res) => {
                if (!res) return;
                setOpen(false);
                props.onDone(res.leave, `The leave of ${who} was rejected.`);
              });
          }}
        >
          <p>
            {leaveTypeLabel(props.leave.type)}, {date(props.leave.start_date)} to {date(props.leave.end_date)}
            . A rejected request is final.
          </p>
          <TextArea
            label="Reason (optional)"
            name="reason"
            value={reason}
            onValue={setReason}
            error={form.errors.reason}
            rows={2}
          />
          <ErrorMessage message={summaryOf(form)} />
          <div class="dialog-actions">
            <Button onClick={() => setOpen(false)}>Cancel</Button>
            <Button type="submit" kind="danger" busy={form.busy}>
              Reject leave
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}

function CancelButton(props: { leave: hr.Leave; onDone: (leave: hr.Leave, message: string) => void }) {
  const { leave } = props;
  const [open, setOpen] = useState(false);
  const who = leave.employee_name;
  return (
    <>
      <Button
        aria-label={`Cancel leave of ${who} from ${date(leave.start_date)}`}
        onClick={() => setOpen(true)}
      >
        Cancel leave
      </Button>
      <ConfirmDialog
        open={open}
        title={`Cancel the leave of ${who}?`}
        confirmLabel="Cancel the leave"
        cancelLabel="Keep the leave"
        onClose={() => setOpen(false)}
        onConfirm={async () => {
          const res = await unwrap(
            api.value.hr.leaves.updateLeave({ params: { id: leave.id }, body: { status: 'cancelled' } }),
          );
          props.onDone(res.leave, `The leave of ${who} was cancelled.`);
        }}
      >
        <p>
          {leaveTypeLabel(leave.type)}, {date(leave.start_date)} to {date(leave.end_date)} ({leave.days}{' '}
          working day{leave.days === 1 ? '' : 's'}). A cancelled leave is final: taking it after all needs a
          new request.
        </p>
      </ConfirmDialog>
    </>
  );
}

/** Approve, reject and cancel, as the leave's status and the role allow. */
export function LeaveActions(props: {
  leave: hr.Leave;
  onDone: (leave: hr.Leave, message: string) => void;
  onError: (message: string) => void;
}) {
  const { leave } = props;
  const approving = useAction();
  if (!can('updateLeave') || (leave.status !== 'pending' && leave.status !== 'approved')) return null;
  const who = leave.employee_name;
  const when = `from ${date(leave.start_date)}`;
  const approve = async () => {
    const refusal = await approving.run(
      () =>
        unwrap(api.value.hr.leaves.updateLeave({ params: { id: leave.id }, body: { status: 'approved' } })),
      (res) => props.onDone(res.leave, `The leave of ${who} was approved: ${res.leave.days} working days.`),
    );
    if (refusal) props.onError(refusal);
  };
  return (
    <div class="row-actions">
      {leave.status === 'pending' ? (
        <>
          <Button
            kind="primary"
            busy={approving.busy}
            aria-label={`Approve the leave of ${who} ${when}`}
            onClick={() => void approve()}
          >
            Approve
          </Button>
          <RejectButton leave={leave} onDone={props.onDone} />
        </>
      ) : null}
      <CancelButton leave={leave} onDone={props.onDone} />
    </div>
  );
}

/** The columns of a leave's type, days and status. */
export const LEAVE_COLUMNS: Column<hr.Leave>[] = [
  {
    label: 'Type',
    render: (l) => {
      const label = leaveTypeLabel(l.type);
      // An unpaid type whose name does not say so.
      return l.paid || /unpaid/i.test(label) ? (
        label
      ) : (
        <>
          {label}
          <span class="line muted">Unpaid</span>
        </>
      );
    },
  },
  { label: 'From', render: (l) => date(l.start_date) },
  { label: 'To', render: (l) => date(l.end_date) },
  { label: 'Working days', numeric: true, render: (l) => number(l.days) },
  { label: 'Status', render: (l) => <Badge value={l.status} /> },
];

/** The Actions column, for a role that decides on leave (none otherwise): says what was done, then `reload`s. */
export function leaveActionsColumn(outcome: Outcome, reload: () => void): Column<hr.Leave>[] {
  if (!can('updateLeave')) return [];
  return [
    {
      label: 'Actions',
      render: (l) => (
        <LeaveActions
          leave={l}
          onDone={(_, message) => {
            outcome.done(message);
            reload();
          }}
          onError={outcome.failed}
        />
      ),
    },
  ];
}
