import { finance, unwrap } from '../../../client/index.js';
import { useLoad } from '../../lib/forms.js';
import { api } from '../../lib/api.js';
import { allowed } from '../../lib/session.js';

/** The chart of accounts (empty for a role that cannot read it). */
export function useAccounts() {
  return useLoad(
    async () =>
      allowed('finance.read') ? (await unwrap(api.value.finance.accounts.listAccounts())).accounts : [],
    [],
  );
}

export const accountLabel = (account: { code: string; name: string }) => `${account.code} ${account.name}`;

/** An account code with its name when the chart knows it. */
export function accountName(accounts: finance.Account[] | undefined, code: string): string {
  const account = accounts?.find((a) => a.code === code);
  return account ? accountLabel(account) : code;
}

/** The accounts as a choice's options, after a first option of no account (`first`, its words). */
export const accountOptions = (accounts: finance.Account[] | undefined, first: string) => [
  { value: '', label: first },
  ...(accounts ?? []).map((a) => ({ value: a.code, label: accountLabel(a) })),
];
