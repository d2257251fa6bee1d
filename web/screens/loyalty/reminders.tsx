import { useState } from 'preact/hooks';
import { contract, loyalty, unwrap } from '../../../client/index.js';
import { ConfirmDialog } from '../../components/confirm.js';
import { DialogForm } from '../../components/form-dialog.js';
import { ListPage } from '../../components/list-page.js';
import { Badge, Button, Dialog, Field, TextArea } from '../../components/ui.js';
import { date, number } from '../../lib/format.js';
import { useDraft, useForm } from '../../lib/forms.js';
import { useWholeList } from '../../lib/list-query.js';
import { oneOf } from '../../lib/lists.js';
import { integerOf } from '../../lib/numbers.js';
import { here } from '../../lib/router.js';
import type { ScreenProps } from '../../lib/screen.js';
import { api, can } from '../../lib/session.js';
import { MemberPicker } from './member-picker.js';
import { actionsColumn, EditDialog } from './editable.js';

/**
 * Service reminders: a service due every so many days (a bike check, a haircut); recording that a
 * member had it awards the bonus points and sets the next due date.
 */

type Reminder = loyalty.Reminder;

function ReminderForm(props: {
  reminder: Reminder | null;
  onSaved: (name: string) => void;
  onCancel: () => void;
}) {
  const r = props.reminder;
  const { draft, bind } = useDraft(() => ({
    name: r?.name ?? '',
    intervalDays: r ? String(r.intervalDays) : '',
    bonusPoints: r ? String(r.bonusPoints) : '0',
    description: r?.description ?? '',
  }));
  const [active, setActive] = useState(r?.isActive ?? true);
  const form = useForm();
  return (
    <DialogForm
      form={form}
      submit={r ? 'Save reminder' : 'Add reminder'}
      onCancel={props.onCancel}
      onSubmit={() => {
        const input = {
          name: draft.name,
          intervalDays: integerOf(draft.intervalDays),
          bonusPoints: integerOf(draft.bonusPoints),
          description: draft.description.trim() || undefined,
          isActive: active,
        };
        const send = r
          ? form.submit(loyalty.UpdateReminderBodySchema, input, (body) =>
              unwrap(api.value.loyalty.reminders.updateReminder({ params: { publicId: r.publicId }, body })),
            )
          : form.submit(loyalty.CreateReminderBodySchema, input, (body) =>
              unwrap(api.value.loyalty.reminders.createReminder({ body })),
            );
        void send.then((ok) => ok !== undefined && props.onSaved(draft.name.trim()));
      }}
    >
      <Field label="Service" {...bind('name', form.errors)} required />
      <div class="form-grid">
        <Field
          label="Due every (days)"
          type="number"
          min={1}
          inputMode="numeric"
          {...bind('intervalDays', form.errors)}
          required
        />
        <Field
          label="Bonus points"
          type="number"
          min={0}
          inputMode="numeric"
          {...bind('bonusPoints', form.errors)}
          hint="Awarded when the service is recorded"
        />
      </div>
      <TextArea label="Description" {...bind('description', form.errors)} />
      <label class="checkbox">
        <input type="checkbox" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
        Active: members are reminded
      </label>
    </DialogForm>
  );
}

function Complete(props: { reminder: Reminder; onDone: (message: string) => void; onCancel: () => void }) {
  const [memberId, setMemberId] = useState('');
  const form = useForm();
  return (
    <DialogForm
      form={form}
      submit="Record service"
      onCancel={props.onCancel}
      onSubmit={() => {
        void form
          .submit(loyalty.CompleteReminderBodySchema, { memberId }, (body) =>
            unwrap(
              api.value.loyalty.reminders.completeReminder({
                params: { publicId: props.reminder.publicId },
                body,
              }),
            ),
          )
          .then((answer) => {
            if (!answer) return;
            const { transaction, nextDueDate } = answer.data;
            props.onDone(
              `${props.reminder.name} recorded${transaction ? `: ${number(transaction.points)} bonus points` : ''}. Next due ${date(nextDueDate)}.`,
            );
          });
      }}
    >
      <MemberPicker
        value={memberId}
        onValue={setMemberId}
        error={form.errors.memberId && (memberId ? form.errors.memberId : 'Choose a member')}
      />
    </DialogForm>
  );
}

export default function Reminders(_props: ScreenProps) {
  const shown = oneOf(here.value.query, 'active', ['yes', 'no'] as const);
  const filters = { isActive: shown === undefined ? undefined : shown === 'yes' ? 'true' : 'false' } as const;
  const list = useWholeList(
    () => api.value.loyalty.reminders.listReminders({ query: filters }),
    (answer) => answer.data,
    [shown],
  );
  const [editing, setEditing] = useState<Reminder | 'new' | null>(null);
  const [completing, setCompleting] = useState<Reminder | null>(null);
  const [deleting, setDeleting] = useState<Reminder | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const anyAction = can('completeReminder') || can('updateReminder') || can('deleteReminder');
  return (
    <>
      <ListPage
        title="Service reminders"
        export={{ route: contract.loyalty.reminders.listReminders, query: filters }}
        create={{ operation: 'createReminder', label: 'Add reminder', onClick: () => setEditing('new') }}
        tabs={{
          label: 'Reminders shown',
          param: 'active',
          values: ['yes', 'no'],
          names: { yes: 'Active', no: 'Inactive' },
          current: shown,
        }}
        notice={notice}
        list={list}
        filtered={{
          active: !!shown,
          title: shown === 'yes' ? 'No active reminders' : 'No inactive reminders',
          clear: ['active'],
          show: 'Show every reminder',
        }}
        empty={{
          title: 'No service reminders yet',
          canAdd:
            'Add a service members come back for, such as a yearly bike check; record it for a member to award bonus points and set the next date.',
          cannotAdd: 'Reminders appear here once someone with loyalty permissions adds them.',
        }}
        table={{
          caption: 'Service reminders',
          rowKey: (r) => r.publicId,
          columns: [
            {
              label: 'Service',
              render: (r) => (
                <>
                  {r.name}
                  {r.description ? <small class="hint block">{r.description}</small> : null}
                </>
              ),
            },
            { label: 'Every', numeric: true, render: (r) => `${number(r.intervalDays)} days` },
            { label: 'Bonus', numeric: true, render: (r) => `${number(r.bonusPoints)} points` },
            { label: 'Status', render: (r) => <Badge value={r.isActive ? 'active' : 'disabled'} /> },
            { label: 'Added', render: (r) => date(r.dateCreated) },
            ...actionsColumn<Reminder>({
              show: anyAction,
              before: (r) =>
                can('completeReminder') && r.isActive ? (
                  <Button kind="primary" onClick={() => setCompleting(r)}>
                    Record service<span class="visually-hidden"> {r.name}</span>
                  </Button>
                ) : null,
              onEdit: can('updateReminder') ? setEditing : undefined,
              onDelete: can('deleteReminder') ? setDeleting : undefined,
            }),
          ],
        }}
      />
      <EditDialog editing={editing} addTitle="Add a service reminder" onClose={() => setEditing(null)}>
        <ReminderForm
          key={editing === 'new' ? 'new' : editing?.publicId}
          reminder={editing === 'new' ? null : editing}
          onCancel={() => setEditing(null)}
          onSaved={(name) => {
            setNotice(editing === 'new' ? `${name} was added.` : `${name} was saved.`);
            setEditing(null);
            list.reload();
          }}
        />
      </EditDialog>
      <Dialog
        title={completing ? `Record ${completing.name}` : ''}
        open={completing !== null}
        onClose={() => setCompleting(null)}
      >
        {completing ? (
          <Complete
            reminder={completing}
            onCancel={() => setCompleting(null)}
            onDone={(message) => {
              setCompleting(null);
              setNotice(message);
            }}
          />
        ) : null}
      </Dialog>
      {deleting ? (
        <ConfirmDialog
          open
          title={`Delete ${deleting.name}?`}
          confirmLabel="Delete reminder"
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await unwrap(
              api.value.loyalty.reminders.deleteReminder({ params: { publicId: deleting.publicId } }),
            );
            setNotice(`${deleting.name} was deleted.`);
            list.reload();
          }}
        >
          <p>No more reminders of it are sent. Points already awarded stay.</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
