import { useState } from 'preact/hooks';
import { contract, finance, unwrap } from '../../../client/index.js';
import { ListPage } from '../../components/list-page.js';
import { ACCOUNT_TYPE_LABELS } from './labels.js';
import { useAccounts } from './chart.js';
import { Field, Link, Select, Table, type Column } from '../../components/ui.js';
import { DialogForm } from '../../components/form-dialog.js';
import { useDraft, useForm } from '../../lib/forms.js';
import { listOf } from '../../lib/list-query.js';
import { conflictOn } from '../../lib/refusals.js';
import { api } from '../../lib/api.js';

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
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <ListPage
      title="Chart of accounts"
      export={{ route: contract.finance.accounts.listAccounts }}
      create={{
        operation: 'createAccount',
        label: 'New account',
        form: (close) => (
          <AccountForm
            onCancel={close}
            onSaved={(account) => {
              close();
              setNotice(`${account.code} ${account.name} was added.`);
              accounts.reload();
            }}
          />
        ),
      }}
      lead="Default accounts post bills, invoices and their payments; they cannot be removed or retyped. Add your own to post manual journal entries to."
      notice={notice}
      list={listOf(accounts)}
      empty={{
        title: 'No accounts',
        canAdd: 'Add one with New account.',
        cannotAdd: 'Accounts appear once someone adds them.',
      }}
    >
      {(rows) => (
        <div class="accounts">
          {finance.ACCOUNT_TYPES.filter((t) => rows.some((a) => a.type === t)).map((t) => (
            <section key={t} aria-labelledby={`accounts-${t}`}>
              <h2 id={`accounts-${t}`}>{ACCOUNT_TYPE_LABELS[t]}</h2>
              <Table
                caption={`${ACCOUNT_TYPE_LABELS[t]} accounts`}
                columns={COLUMNS}
                rows={rows.filter((a) => a.type === t)}
                rowKey={(a) => a.code}
              />
            </section>
          ))}
        </div>
      )}
    </ListPage>
  );
}
