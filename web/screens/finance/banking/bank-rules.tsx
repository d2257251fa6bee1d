import { contract, finance, unwrap } from '../../../../client/index.js';
import { EditDialog, rowActions, useEditing } from '../../../components/edit-dialog.js';
import { ListPage } from '../../../components/list-page.js';
import type { Column } from '../../../components/ui.js';
import { api, can } from '../../../lib/api.js';
import { useBaseCurrency } from '../../../lib/currencies.js';
import { minorMoney } from '../../../lib/format.js';
import { usePagedList } from '../../../lib/list-query.js';
import { accountName, useAccounts } from '../chart.js';
import { DIRECTION_LABELS } from '../labels.js';
import { RuleForm } from './rule-form.js';

/**
 * Bank rules, in the order they are tried: each suggests an account for the statement lines whose
 * description contains its words; added, changed and deleted in a dialog.
 */

const PAGE_SIZE = 20;

/** A rule as the edit dialog names it: by its words. */
type NamedRule = finance.BankRule & { name: string };

/** The amounts a rule applies to, in words. */
function amountsText(rule: finance.BankRule, currency: string): string {
  const min = rule.min_amount == null ? null : minorMoney(rule.min_amount, currency);
  const max = rule.max_amount == null ? null : minorMoney(rule.max_amount, currency);
  if (min && max) return `${min} to ${max}`;
  if (min) return `${min} or more`;
  if (max) return `Up to ${max}`;
  return 'Any';
}

export default function BankRules() {
  const state = useEditing<NamedRule>();
  const accounts = useAccounts();
  const { currency } = useBaseCurrency();
  const list = usePagedList(
    PAGE_SIZE,
    (paging) => api.value.finance.bankRules.listBankRules({ query: paging }),
    (answer) => ({
      rows: answer.bank_rules.map((r) => ({ ...r, name: `“${r.description_contains}”` })),
      total: answer.total_count,
    }),
    [],
  );
  const columns: Column<NamedRule>[] = [
    { label: 'Description contains', render: (r) => <strong>{r.description_contains}</strong> },
    { label: 'Direction', render: (r) => DIRECTION_LABELS[r.direction ?? 'either'] },
    { label: 'Amounts', render: (r) => amountsText(r, currency) },
    { label: 'Suggests', render: (r) => accountName(accounts.data, r.account_code) },
    ...rowActions(state, {
      edit: can('updateBankRule'),
      remove: can('deleteBankRule')
        ? {
            label: 'Delete rule',
            words: () => (
              <p>
                Its suggestions on lines not yet reconciled go with it; lines it categorised stay categorised.
              </p>
            ),
            send: (r) => unwrap(api.value.finance.bankRules.deleteBankRule({ params: { id: r.id } })),
            reload: list.reload,
          }
        : undefined,
    }),
  ];
  return (
    <>
      <ListPage
        title="Bank rules"
        export={{ route: contract.finance.bankRules.listBankRules }}
        create={{
          operation: 'createBankRule',
          label: 'New rule',
          onClick: () => {
            state.setNotice(null);
            state.setEditing('new');
          },
        }}
        lead="A rule suggests an account for the statement lines it fits, on every import; accept them all at once on a bank account's page. The first rule a line fits is the one used."
        notice={state.notice}
        list={list}
        empty={{
          title: 'No bank rules yet',
          canAdd:
            'Add one for what comes every month without an invoice or bill: bank fees, rent by standing order, card payments to a supplier.',
          cannotAdd: 'Rules appear here once someone with permission to add them does so.',
        }}
        table={{ caption: 'Bank rules', columns, rowKey: (r) => r.id }}
      />
      <EditDialog
        state={state}
        addTitle="New bank rule"
        form={(rule) => (
          <RuleForm
            rule={rule}
            currency={currency}
            accounts={accounts.data}
            onCancel={state.close}
            onSaved={(saved) => state.saved(`“${saved.bank_rule.description_contains}”`, list.reload)}
          />
        )}
      />
    </>
  );
}
