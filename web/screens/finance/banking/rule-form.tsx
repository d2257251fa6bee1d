import { finance, unwrap } from '../../../../client/index.js';
import { DialogForm } from '../../../components/form-dialog.js';
import { Field, Select } from '../../../components/ui.js';
import { api } from '../../../lib/api.js';
import { useDraft, useForm } from '../../../lib/forms.js';
import { minorText } from '../../../lib/lines.js';
import { minorOf } from '../../../lib/numbers.js';
import { accountOptions } from '../chart.js';
import { DIRECTION_LABELS } from '../labels.js';

/**
 * A bank rule as a form, added or changed: the words a line's description contains, its direction
 * and amounts, and the account the lines it fits are suggested for (the bank rules list, and "Make a
 * rule" from a statement line).
 */

export interface RuleDraft {
  description_contains: string;
  direction: '' | 'in' | 'out';
  min_amount: string;
  max_amount: string;
  account_code: string;
}

const DIRECTIONS = [
  { value: '', label: DIRECTION_LABELS.either },
  { value: 'in', label: DIRECTION_LABELS.in },
  { value: 'out', label: DIRECTION_LABELS.out },
];

/** A rule's draft: its values, or empty. */
export const ruleDraft = (rule: finance.BankRule | undefined, currency: string): RuleDraft => ({
  description_contains: rule?.description_contains ?? '',
  direction: rule?.direction ?? '',
  min_amount: rule?.min_amount == null ? '' : minorText(rule.min_amount, currency),
  max_amount: rule?.max_amount == null ? '' : minorText(rule.max_amount, currency),
  account_code: rule?.account_code ?? '',
});

/**
 * The words of a statement line's description a rule is best made of: those without digits (a
 * card number, a date or a reference changes from one month to the next), at most four.
 */
export const ruleWords = (description: string): string =>
  description
    .split(/\s+/)
    .filter((word) => word !== '' && !/\d/.test(word))
    .slice(0, 4)
    .join(' ');

export type SavedRule = { bank_rule: finance.BankRule; suggested?: number };

export function RuleForm(props: {
  rule?: finance.BankRule;
  /** The draft of a new rule (made from a statement line). */
  initial?: RuleDraft;
  /** The currency its amounts are typed in. */
  currency: string;
  accounts: finance.Account[] | undefined;
  onSaved: (saved: SavedRule) => void;
  onCancel: () => void;
}) {
  const { rule, currency } = props;
  const { draft, bind } = useDraft<RuleDraft>(() => props.initial ?? ruleDraft(rule, currency));
  const form = useForm();
  const submit = () => {
    // Empty optional fields: left out of a new rule, cleared (null) on one being changed.
    const empty = rule ? null : undefined;
    const body = {
      description_contains: draft.description_contains,
      direction: draft.direction || empty,
      min_amount: minorOf(draft.min_amount, currency) ?? empty,
      max_amount: minorOf(draft.max_amount, currency) ?? empty,
      account_code: draft.account_code,
    };
    const rules = api.value.finance.bankRules;
    const saving: Promise<SavedRule | undefined> = rule
      ? form.submit(finance.UpdateBankRuleBodySchema, body, (value) =>
          unwrap(rules.updateBankRule({ params: { id: rule.id }, body: value })),
        )
      : form.submit(finance.CreateBankRuleBodySchema, body, (value) =>
          unwrap(rules.createBankRule({ body: value })),
        );
    void saving.then((saved) => {
      if (saved) props.onSaved(saved);
    });
  };
  const e = form.errors;
  return (
    <DialogForm
      form={form}
      submit={rule ? 'Save rule' : 'Add rule'}
      onCancel={props.onCancel}
      onSubmit={submit}
    >
      <Field
        label="Description contains"
        hint="Found anywhere in a line's description, in capitals or not"
        {...bind('description_contains', e)}
        required
      />
      <Select label="Direction" {...bind('direction', e)} options={DIRECTIONS} />
      <div class="form-row">
        <Field
          label={`Least amount in ${currency}`}
          hint="Optional, without its sign"
          inputMode="decimal"
          {...bind('min_amount', e)}
        />
        <Field
          label={`Largest amount in ${currency}`}
          hint="Optional, without its sign"
          inputMode="decimal"
          {...bind('max_amount', e)}
        />
      </div>
      <Select
        label="Suggest the account"
        {...bind('account_code', e)}
        options={accountOptions(props.accounts, 'Choose an account')}
      />
    </DialogForm>
  );
}
