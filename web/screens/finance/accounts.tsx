import { useState } from 'preact/hooks';
import { contract, finance, unwrap } from '../../../client/index.js';
import { ExportButton } from '../../components/csv.js';
import { ACCOUNT_TYPE_LABELS } from './labels.js';
import { useAccounts } from './chart.js';
import {
  Button,
  Dialog,
  Empty,
  ErrorMessage,
  Field,
  Link,
  Loading,
  Notice,
  PageHeader,
  Select,
  Table,
  type Column,
} from '../../components/ui.js';
import { DialogForm } from '../../components/form-dialog.js';
import { useDraft, useForm } from '../../lib/forms.js';
import { conflictOn } from '../../lib/refusals.js';
import { api, can } from '../../lib/session.js';

/** The chart of accounts by code: the default accounts and the business's own; a new one added in a dialog. */

function AccountForm(props: { onSaved: (account: finance.Account) => void; onCancel: () => void }) {
  const { draft, bind } = useDraft(() => ({ code: '', name: '', type: 'expense' }));
  const form = useForm();
  const submit = () => {
    void form
      .submit(finance.CreateAccountBodySchema, { ...draft, code: draft.code.trim() }, (body) =>
        conflictOn('code', unwrap(api.value.finance.accounts.createAccount({ body }))),
      )
      .then((saved) => {
        if (saved) props.onSaved(saved.account);
      });
  };
  const e = form.errors;
  return (
    <DialogForm form={form} submit="Add account" onCancel={props.onCancel} onSubmit={submit}>
      <div class="form-row">
        <Field label="Code" hint="Letters, digits, “.” or “-”, such as 6100" {...bind('code', e)} required />
        <Select
          label="Type"
          {...bind('type', e)}
          options={finance.ACCOUNT_TYPES.map((t) => ({ value: t, label: ACCOUNT_TYPE_LABELS[t] }))}
        />
      </div>
      <Field label="Name" {...bind('name', e)} required />
    </DialogForm>
  );
}

const COLUMNS: Column<finance.Account>[] = [
  { label: 'Code', render: (a) => <span class="mono">{a.code}</span> },
  { label: 'Name', render: (a) => a.name },
  { label: 'Kind', render: (a) => (a.system ? 'Default' : 'Added') },
  {
    label: 'Entries',
    render: (a) => (
      <Link
        to={`/finance/journal?account=${encodeURIComponent(a.code)}`}
        aria-label={`Journal of ${a.code} ${a.name}`}
      >
        Journal
      </Link>
    ),
  },
];

export default function Accounts() {
  const accounts = useAccounts();
  const [creating, setCreating] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const canCreate = can('createAccount');
  return (
    <>
      <PageHeader title="Chart of accounts">
        <ExportButton route={contract.finance.accounts.listAccounts} />
        {canCreate ? (
          <Button
            kind="primary"
            onClick={() => {
              setNotice(null);
              setCreating(true);
            }}
          >
            New account
          </Button>
        ) : null}
      </PageHeader>
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      <p class="lead">
        Default accounts post bills, invoices and their payments; they cannot be removed or retyped. Add your
        own to post manual journal entries to.
      </p>
      {accounts.error ? (
        <ErrorMessage message={accounts.error} onRetry={accounts.reload} />
      ) : !accounts.data ? (
        <Loading />
      ) : accounts.data.length === 0 ? (
        <Empty title="No accounts">
          <p>{canCreate ? 'Add one with New account.' : 'Accounts appear once someone adds them.'}</p>
        </Empty>
      ) : (
        <div class="accounts">
          {finance.ACCOUNT_TYPES.filter((t) => accounts.data!.some((a) => a.type === t)).map((t) => (
            <section key={t} aria-labelledby={`accounts-${t}`}>
              <h2 id={`accounts-${t}`}>{ACCOUNT_TYPE_LABELS[t]}</h2>
              <Table
                caption={`${ACCOUNT_TYPE_LABELS[t]} accounts`}
                columns={COLUMNS}
                rows={accounts.data!.filter((a) => a.type === t)}
                rowKey={(a) => a.code}
              />
            </section>
          ))}
        </div>
      )}
      <Dialog title="New account" open={creating} onClose={() => setCreating(false)}>
        <AccountForm
          onCancel={() => setCreating(false)}
          onSaved={(account) => {
            setCreating(false);
            setNotice(`${account.code} ${account.name} was added.`);
            accounts.reload();
          }}
        />
      </Dialog>
    </>
  );
}
