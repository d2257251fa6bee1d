import { useState } from 'preact/hooks';
import { BmsApiError, finance, unwrap } from '../../../client/index.js';
import { Button, ErrorMessage, Field, Loading, Notice, PageHeader } from '../../components/ui.js';
import { date, dateTime, today } from '../../lib/format.js';
import { useForm, useLoad } from '../../lib/forms.js';
import { summaryOf } from '../../lib/refusals.js';
import { api, can } from '../../lib/api.js';
import { session } from '../../lib/session.js';

/**
 * The lock date of the books: nothing is posted on or before it (invoices, payments, bills, credit
 * notes, journal entries, bank matches). Read by anyone who reads the books; set to today or earlier;
 * moved earlier, or cleared, by an owner only.
 */

export default function LockDate() {
  const load = useLoad(async () => (await unwrap(api.value.finance.books.getLockDate())).data, []);
  const [saved, setSaved] = useState<string | null>(null);
  const current = load.data;
  return (
    <>
      <PageHeader title="Lock date" />
      <p class="lead">
        Closing a period keeps its figures as filed: nothing can be posted on or before the lock date, by the
        dashboard or the API. A draft may still be dated in it, but it cannot be issued or approved there.
      </p>
      {load.error ? (
        <ErrorMessage message={load.error} onRetry={load.reload} />
      ) : current === undefined ? (
        <Loading />
      ) : (
        <>
          {saved ? <Notice kind="success">{saved}</Notice> : null}
          <section class="panel" aria-labelledby="lock-current">
            <h2 id="lock-current">Current lock date</h2>
            <p data-lock-date={current.lock_date ?? ''}>
              {current.lock_date ? (
                <>
                  The books are locked up to and including <strong>{date(current.lock_date)}</strong>.
                </>
              ) : (
                'No period is locked: entries may be posted on any date.'
              )}
            </p>
            {current.updated_at ? <p class="hint">Last changed {dateTime(current.updated_at)}.</p> : null}
          </section>
          {can('setLockDate') ? (
            <LockForm
              key={current.lock_date ?? 'none'}
              current={current}
              onSaved={(message) => {
                setSaved(message);
                load.reload();
              }}
            />
          ) : null}
        </>
      )}
    </>
  );
}

function LockForm(props: { current: finance.LockDate; onSaved: (message: string) => void }) {
  const [value, setValue] = useState(props.current.lock_date ?? '');
  const [ownerOnly, setOwnerOnly] = useState<string | null>(null);
  const form = useForm();
  const owner = session.value?.info.role === 'owner';
  const locked = props.current.lock_date;
  const save = (lockDate: string | null) => {
    setOwnerOnly(null);
    void form
      .submit(finance.SetLockDateBodySchema, { lock_date: lockDate }, async (body) => {
        try {
          return await unwrap(api.value.finance.books.setLockDate({ body }));
        } catch (err) {
          if (err instanceof BmsApiError && err.code === 'FORBIDDEN' && locked) {
            setOwnerOnly(
              `Only an owner can move the lock date earlier than ${date(locked)} or clear it: it reopens a closed period.`,
            );
          }
          throw err;
        }
      })
      .then((answer) => {
        if (answer) props.onSaved(`${answer.message}.`);
      });
  };
  const submit = (event: Event) => {
    event.preventDefault();
    save(value === '' ? null : value);
  };
  return (
    <section class="panel" aria-labelledby="lock-set">
      <h2 id="lock-set">Set the lock date</h2>
      <form onSubmit={submit} noValidate class="lock-form">
        <Field
          label="Lock date"
          name="lock_date"
          type="date"
          value={value}
          onValue={setValue}
          max={today()}
          error={form.errors.lock_date}
          hint={
            owner
              ? 'Today or earlier. Moving it earlier or clearing it reopens a closed period.'
              : 'Today or earlier. Only an owner can move it earlier or clear it.'
          }
        />
        <ErrorMessage message={ownerOnly ?? summaryOf(form)} />
        <div class="form-actions">
          <Button type="submit" kind="primary" busy={form.busy}>
            Lock the books
          </Button>
          {locked && owner ? (
            <Button busy={form.busy} onClick={() => save(null)}>
              Clear the lock date
            </Button>
          ) : null}
        </div>
      </form>
    </section>
  );
}
