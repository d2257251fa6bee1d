import { useState } from 'preact/hooks';
import { contract, loyalty, unwrap } from '../../../client/index.js';
import { DialogForm } from '../../components/form-dialog.js';
import { ListPage } from '../../components/list-page.js';
import { Badge, Button, Dialog, Field } from '../../components/ui.js';
import { date, number } from '../../lib/format.js';
import { useDraft, useForm } from '../../lib/forms.js';
import { useWholeList } from '../../lib/list-query.js';
import { integerOf } from '../../lib/numbers.js';
import type { ScreenProps } from '../../lib/screen.js';
import { api, can } from '../../lib/api.js';
import { MemberPicker } from './member-picker.js';
import {
  actionsColumn,
  activeFilter,
  nameColumn,
  RowDialogs,
  RowForm,
  saveRow,
  useRowEditing,
} from './editable.js';

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
  const reminders = api.value.loyalty.reminders;
  return (
    <RowForm
      form={form}
      noun="reminder"
      adding={!r}
      onCancel={props.onCancel}
      onSubmit={() => {
        const input = {
          name: draft.name,
          intervalDays: integerOf(draft.intervalDays),
          bonusPoints: integerOf(draft.bonusPoints),
          description: draft.description.trim() || undefined,
          isActive: active,
        };
        void saveRow(
          form,
          r,
          input,
          [loyalty.CreateReminderBodySchema, (body) => unwrap(reminders.createReminder({ body }))],
          [
            loyalty.UpdateReminderBodySchema,
            (body, publicId) => unwrap(reminders.updateReminder({ params: { publicId }, body })),
          ],
        ).then((ok) => ok !== undefined && props.onSaved(draft.name.trim()));
      }}
      described={{
        description: bind('description', form.errors),
        active,
        setActive,
        words: 'Active: members are reminded',
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
    </RowForm>
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
  const shown = activeFilter('active', {
    label: 'Reminders shown',
    yes: 'Active',
    no: 'Inactive',
    noneYes: 'No active reminders',
    noneNo: 'No inactive reminders',
    show: 'Show every reminder',
  });
  const list = useWholeList(
    () => api.value.loyalty.reminders.listReminders({ query: shown.query }),
    (answer) => answer.data,
    [shown.shown],
  );
  const state = useRowEditing<Reminder>();
  const [completing, setCompleting] = useState<Reminder | null>(null);
  const anyAction = can('completeReminder') || can('updateReminder') || can('deleteReminder');
  return (
    <>
      <ListPage
        title="Service reminders"
        export={{ route: contract.loyalty.reminders.listReminders, query: shown.query }}
        create={{
          operation: 'createReminder',
          label: 'Add reminder',
          onClick: () => state.setEditing('new'),
        }}
        tabs={shown.tabs}
        notice={state.notice}
        list={list}
        filtered={shown.filtered}
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
            nameColumn('Service'),
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
              onEdit: can('updateReminder') ? state.setEditing : undefined,
              onDelete: can('deleteReminder') ? state.setDeleting : undefined,
            }),
          ],
        }}
      />
      <RowDialogs
        state={state}
        reload={list.reload}
        addTitle="Add a service reminder"
        form={(reminder, onSaved, onCancel) => (
          <ReminderForm reminder={reminder} onSaved={onSaved} onCancel={onCancel} />
        )}
        remove={{
          label: 'Delete reminder',
          words: <p>No more reminders of it are sent. Points already awarded stay.</p>,
          send: (publicId) => unwrap(api.value.loyalty.reminders.deleteReminder({ params: { publicId } })),
        }}
      />
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
              state.setNotice(message);
            }}
          />
        ) : null}
      </Dialog>
    </>
  );
}
