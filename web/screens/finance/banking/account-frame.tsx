import type { ComponentChildren } from 'preact';
import { finance, unwrap } from '../../../../client/index.js';
import { RecordHeader, RecordUnavailable } from '../../../components/record.js';
import { Link } from '../../../components/ui.js';
import { api, can } from '../../../lib/api.js';
import { date, minorMoney } from '../../../lib/format.js';
import { useLoad } from '../../../lib/forms.js';

/**
 * The pages of one bank account (its lines to reconcile, a statement's import, the reconciliation
 * report): the way back to the list, the account's name and facts, and links to the other two.
 */

export const BANK_ACCOUNTS = { to: '/finance/bank-accounts', name: 'Bank accounts' };

const PAGES = [
  { key: 'reconcile', words: 'Reconcile the lines', path: '' },
  { key: 'import', words: 'Import a statement', path: '/import' },
  { key: 'report', words: 'Reconciliation report', path: '/reconciliation' },
] as const;

export function BankAccountFrame(props: {
  id: string;
  page: (typeof PAGES)[number]['key'];
  children: (account: finance.BankAccount) => ComponentChildren;
}) {
  const { id } = props;
  const load = useLoad(() => unwrap(api.value.finance.bankAccounts.getBankAccount({ params: { id } })), [id]);
  if (load.error || !load.data) {
    return <RecordUnavailable load={load} title="Bank account" list={BANK_ACCOUNTS} />;
  }
  const account = load.data.bank_account;
  const pages = PAGES.filter((p) => p.key !== 'import' || can('importStatement'));
  return (
    <>
      <RecordHeader list={BANK_ACCOUNTS} title={account.name}>
        {pages
          .filter((p) => p.key !== props.page)
          .map((p) => (
            <Link key={p.key} to={`/finance/bank-accounts/${id}${p.path}`} class="button secondary">
              {p.words}
            </Link>
          ))}
      </RecordHeader>
      <p class="account-facts">
        {account.currency} · chart account <span class="mono">{account.account_code}</span>
        {account.account_number_last4 ? (
          <>
            {' '}
            · number ending <span class="mono">{account.account_number_last4}</span>
          </>
        ) : null}{' '}
        · opened {date(account.opening_date)} with {minorMoney(account.opening_balance, account.currency)}
      </p>
      {props.children(account)}
    </>
  );
}
