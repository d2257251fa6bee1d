import { contract, finance, unwrap } from '../../../../client/index.js';
import { DialogForm } from '../../../components/form-dialog.js';
import { ListPage } from '../../../components/list-page.js';
import { Field, Link, Select, type Column } from '../../../components/ui.js';
import { api, can } from '../../../lib/api.js';
import { currencyOptions, useBaseCurrency } from '../../../lib/currencies.js';
import { date, minorMoney, today } from '../../../lib/format.js';
import { useDraft, useForm } from '../../../lib/forms.js';
import { usePagedList } from '../../../lib/list-query.js';
import { minorOf } from '../../../lib/numbers.js';
import { navigate } from '../../../lib/router.js';

/**
 * The business's bank accounts, each with its own account in the chart: added in a dialog (its
 * opening balance posted to the ledger), each opening on the statement lines to reconcile.
 */

const PAGE_SIZE = 20;

function BankAccountForm(props: { currency: string; onCancel: () => void }) {
  const { draft, bind } = useDraft(() => ({
    name: '',
    currency: props.currency,
    account_number_last4: '',
    opening_balance: '',
    opening_date: today(),
  }));
  const form = useForm();
  const submit = () => {
    const body = {
      name: draft.name,
      currency: draft.currency,
      account_number_last4: draft.account_number_last4.trim() || undefined,
      opening_balance: minorOf(draft.opening_balance, draft.currency) ?? 0,
      opening_date: draft.opening_date || undefined,
    };
    void form
      .submit(finance.CreateBankAccountBodySchema, body, (value) =>
        unwrap(api.value.finance.bankAccounts.createBankAccount({ body: value })),
      )
      .then((saved) => {
        if (saved) navigate(`/finance/bank-accounts/${saved.bank_account.id}`);
      });
  };
  const e = form.errors;
  return (
    <DialogForm form={form} submit="Add bank account" onCancel={props.onCancel} onSubmit={submit}>
      <Field label="Name" hint="As you call it: “Barclays current account”" {...bind('name', e)} required />
      <div class="form-row">
        <Select label="Currency" {...bind('currency', e)} options={currencyOptions()} />
        <Field
          label="Last 4 of the account number"
          hint="Optional, to tell accounts apart"
          inputMode="numeric"
          {...bind('account_number_last4', e)}
        />
      </div>
      <div class="form-row">
        <Field
          label={`Opening balance in ${draft.currency}`}
          hint="The balance on the opening date; negative for an overdraft"
          inputMode="decimal"
          {...bind('opening_balance', e)}
        />
        <Field label="Opening date" type="date" {...bind('opening_date', e)} />
      </div>
    </DialogForm>
  );
}

const COLUMNS: Column<finance.BankAccount>[] = [
  {
    label: 'Name',
    render: (b) => (
      <Link to={`/finance/bank-accounts/${b.id}`} aria-label={`Reconcile ${b.name}`}>
        {b.name}
      </Link>
    ),
  },
  {
    label: 'Account number',
    render: (b) => (b.account_number_last4 ? <span class="mono">•••• {b.account_number_last4}</span> : '—'),
  },
  { label: 'Chart account', render: (b) => <span class="mono">{b.account_code}</span> },
  { label: 'Currency', render: (b) => b.currency },
  { label: 'Opening balance', numeric: true, render: (b) => minorMoney(b.opening_balance, b.currency) },
  { label: 'Opened', render: (b) => date(b.opening_date) },
  {
    label: 'Statements',
    render: (b) => (
      <div class="row-actions">
        {can('importStatement') ? (
          <Link to={`/finance/bank-accounts/${b.id}/import`} aria-label={`Import a statement into ${b.name}`}>
            Import
          </Link>
        ) : null}
        <Link
          to={`/finance/bank-accounts/${b.id}/reconciliation`}
          aria-label={`Reconciliation report of ${b.name}`}
        >
          Report
        </Link>
      </div>
    ),
  },
];

export default function BankAccounts() {
  const base = useBaseCurrency();
  const list = usePagedList(
    PAGE_SIZE,
    (paging) => api.value.finance.bankAccounts.listBankAccounts({ query: paging }),
    (answer) => ({ rows: answer.bank_accounts, total: answer.total_count }),
    [],
  );
  return (
    <ListPage
      title="Bank accounts"
      export={{ route: contract.finance.bankAccounts.listBankAccounts }}
      create={{
        operation: 'createBankAccount',
        label: 'New bank account',
        form: (close) => <BankAccountForm key={base.currency} currency={base.currency} onCancel={close} />,
      }}
      lead="Import each account's statements, then match every line to the invoice, bill or account it belongs to until the statement and the ledger agree."
      list={list}
      empty={{
        title: 'No bank accounts yet',
        canAdd: 'Add the accounts your business banks with, with their balance on the day you start.',
        cannotAdd: 'Bank accounts appear here once someone with permission to add them does so.',
      }}
      table={{ caption: 'Bank accounts', columns: COLUMNS, rowKey: (b) => b.id }}
    />
  );
}
