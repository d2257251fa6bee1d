import { useState } from 'preact/hooks';
import { BmsApiError, finance, toMinor, unwrap } from '../../../../client/index.js';
import { FormDialog, useDraftDialog } from '../../../components/form-dialog.js';
import { CellInput, CellSelect, LineTable, patchLine, TotalsPanel } from '../../../components/line-editor.js';
import { Field, Select } from '../../../components/ui.js';
import { api } from '../../../lib/api.js';
import { date, minorMoney } from '../../../lib/format.js';
import { FieldRefusal, useForm, useLoad } from '../../../lib/forms.js';
import { minorText, showMinor } from '../../../lib/lines.js';
import { plainDetail } from '../../../lib/messages.js';
import { minorOf } from '../../../lib/numbers.js';
import { allowed } from '../../../lib/session.js';
import { accountOptions } from '../chart.js';
import { LineAmount } from './statement-lines.js';

/** The reconcile screen's dialogs for the chosen line: categorise it, or match it to several documents. */

type Line = finance.BankTransaction;
type Answer = { message: string; bank_transaction: Line };

/** The line the dialog acts on, above its fields. */
function LineSummary(props: { line: Line; currency: string }) {
  const { line } = props;
  return (
    <p class="dialog-line">
      {date(line.date)} · {line.description} · <LineAmount amount={line.amount} currency={props.currency} />
    </p>
  );
}

export function CategoriseDialog(props: {
  line: Line;
  currency: string;
  open: boolean;
  onClose: () => void;
  accounts: finance.Account[] | undefined;
  /** The account a rule suggests, chosen to begin with. */
  suggested?: string;
  onDone: (answer: Answer) => void;
}) {
  const { line } = props;
  const { bind, dialog } = useDraftDialog({
    open: props.open,
    onClose: props.onClose,
    initial: () => ({ account_code: props.suggested ?? '', description: '' }),
    send: (draft, form) =>
      form.submit(
        finance.CategoriseBankTransactionBodySchema,
        { account_code: draft.account_code || undefined, description: draft.description.trim() || undefined },
        (body) =>
          unwrap(
            api.value.finance.bankTransactions.categoriseBankTransaction({ params: { id: line.id }, body }),
          ),
      ),
    onDone: props.onDone,
  });
  return (
    <FormDialog title="Categorise this line" submit="Categorise" {...dialog}>
      <LineSummary line={line} currency={props.currency} />
      <Select
        label="Account"
        {...bind('account_code')}
        options={accountOptions(props.accounts, 'Choose an account')}
      />
      <Field
        label="Description"
        hint="Optional: the ledger entry's words; the line's own when empty"
        {...bind('description')}
      />
    </FormDialog>
  );
}

/** A document a part of the line may pay: `invoice:inv_…`, `bill:bill_…` or `journal_line:je_…:2`. */
interface Payable {
  value: string;
  label: string;
  /** What it still owes (or holds), in minor units. */
  owed: number;
}

const payableOf = (s: finance.BankSuggestion, currency: string): Payable | null => {
  const id = s.invoice_id ?? s.bill_id ?? s.journal_line_id;
  if (s.kind === 'rule' || !id) return null;
  return {
    value: `${s.kind}:${id}`,
    label: `${s.label} · ${minorMoney(s.amount, currency)}`,
    owed: s.amount,
  };
};

/**
 * What the line may pay: the suggestions, then the open invoices (money in) or bills (money out) in
 * the account's currency that the role may read.
 */
async function payablesOf(line: Line, currency: string, suggestions: finance.BankSuggestion[]) {
  const found = suggestions.flatMap((s) => payableOf(s, currency) ?? []);
  if (line.amount > 0 && allowed('sales.read')) {
    const pages = await Promise.all(
      (['unpaid', 'overdue'] as const).map((status) =>
        unwrap(api.value.general.invoices.listInvoices({ query: { status, limit: 100 } })),
      ),
    );
    for (const invoice of pages.flatMap((p) => p.data)) {
      if (invoice.currency !== currency) continue;
      const owed = toMinor(invoice.amount_due, currency);
      found.push({
        value: `invoice:${invoice.id}`,
        label: `${invoice.number} · ${invoice.customer.name} · owes ${minorMoney(owed, currency)}`,
        owed,
      });
    }
  }
  if (line.amount < 0 && allowed('finance.read')) {
    const pages = await Promise.all(
      (['pending', 'overdue'] as const).map((status) =>
        unwrap(api.value.finance.bills.listBills({ query: { status, limit: 200 } })),
      ),
    );
    for (const bill of pages.flatMap((p) => p.bills)) {
      if (bill.currency !== currency) continue;
      found.push({
        value: `bill:${bill.id}`,
        label: `${bill.vendor_name}, due ${date(bill.due_date)} · owes ${minorMoney(bill.amount_due, currency)}`,
        owed: bill.amount_due,
      });
    }
  }
  const seen = new Set<string>();
  return found.filter((p) => !seen.has(p.value) && seen.add(p.value));
}

interface Part {
  key: number;
  payable: string;
  amount: string;
}

let nextKey = 1;

/** A part's document as the match names it. */
function matchOf(part: Part, currency: string) {
  const at = part.payable.indexOf(':');
  const kind = part.payable.slice(0, at);
  const id = part.payable.slice(at + 1);
  const amount = minorOf(part.amount, currency);
  return { [`${kind}_id`]: id, amount };
}

/**
 * A refusal of the parts as a whole (their amounts do not add up to the line), said under the parts
 * with the amounts sent, in the account's currency rather than the API's minor units.
 */
const asPartsRefusal = (sent: bigint, total: number, currency: string) => (err: unknown) => {
  if (!(err instanceof BmsApiError) || err.code !== 'VALIDATION_ERROR') throw err;
  const whole = (err.details ?? []).filter((d) => d.field === 'matches');
  if (whole.length > 0 || !err.details?.length) {
    const words =
      sent === BigInt(total)
        ? plainDetail(whole[0]?.message ?? err.message)
        : `The parts add up to ${showMinor(sent, currency, minorMoney)}; the line is ${minorMoney(total, currency)}: they must be equal.`;
    throw new FieldRefusal('matches', words);
  }
  throw err;
};

/**
 * Match the line to several documents: each part a document and the amount of the line it paid,
 * the amount still to place shown as they are typed; the service refuses parts that do not add up
 * to the line.
 */
export function SplitDialog(props: {
  line: Line;
  currency: string;
  open: boolean;
  onClose: () => void;
  suggestions: finance.BankSuggestion[];
  /** The first part, chosen to begin with (a suggestion owing less than the line). */
  first?: finance.BankSuggestion;
  onDone: (answer: Answer) => void;
}) {
  const { line, currency, first } = props;
  const total = Math.abs(line.amount);
  const blank = (): Part => ({ key: nextKey++, payable: '', amount: '' });
  const start = (): Part[] => {
    const payable = first && payableOf(first, currency);
    return [
      payable
        ? { key: nextKey++, payable: payable.value, amount: minorText(payable.owed, currency) }
        : blank(),
      blank(),
    ];
  };
  const [parts, setParts] = useState<Part[]>(start);
  const [unchosen, setUnchosen] = useState<Record<number, string>>({});
  const form = useForm();
  const payables = useLoad(() => payablesOf(line, currency, props.suggestions), [line.id]);
  const close = () => {
    form.clear();
    setUnchosen({});
    setParts(start());
    props.onClose();
  };
  const placed = parts.reduce((sum, p) => {
    const minor = minorOf(p.amount, currency);
    return typeof minor === 'number' ? sum + BigInt(minor) : sum;
  }, 0n);
  const remaining = BigInt(total) - placed;
  const choose = (part: Part, value: string) => {
    const owed = payables.data?.find((p) => p.value === value)?.owed;
    // A document chosen for an empty amount: what it owes, up to what is left of the line.
    const amount =
      part.amount.trim() === '' && owed !== undefined && value
        ? minorText(Math.min(owed, Number(remaining > 0n ? remaining : 0n)), currency)
        : part.amount;
    setParts((ps) => patchLine(ps, part.key, { payable: value, amount }));
  };
  const submit = () => {
    const used = parts.filter((p) => p.payable || p.amount.trim());
    const missing = Object.fromEntries(
      used.filter((p) => !p.payable).map((p) => [p.key, 'Choose what this part paid.']),
    );
    setUnchosen(missing);
    if (Object.keys(missing).length > 0) return;
    void form
      .submit(
        finance.MatchBankTransactionBodySchema,
        { matches: used.map((p) => matchOf(p, currency)) },
        (body) =>
          unwrap(
            api.value.finance.bankTransactions.matchBankTransaction({ params: { id: line.id }, body }),
          ).catch(asPartsRefusal(placed, total, currency)),
      )
      .then((answer) => {
        if (!answer) return;
        props.onDone(answer);
        close();
      });
  };
  const e = form.errors;
  const options = [
    { value: '', label: payables.loading ? 'Loading…' : 'Choose a document' },
    ...(payables.data ?? []),
  ];
  const indexOf = (part: Part) => parts.filter((p) => p.payable || p.amount.trim()).indexOf(part);
  return (
    <FormDialog
      title="Match to several documents"
      submit="Match"
      class="split-form"
      open={props.open}
      onClose={close}
      form={form}
      // A refusal of the parts as a whole is said under them; the line here would only point to it.
      message={e.matches !== undefined && Object.keys(e).length === 1 ? null : undefined}
      onSubmit={submit}
    >
      <LineSummary line={line} currency={currency} />
      <LineTable
        caption="Parts of the line"
        noun="part"
        lines={parts}
        onAdd={() => setParts((ps) => [...ps, blank()])}
        onRemove={(key) => setParts((ps) => ps.filter((p) => p.key !== key))}
        error={e.matches ?? e._}
        columns={[
          {
            label: 'Invoice, bill or recorded payment',
            cell: (part, i) => (
              <CellSelect
                label={`Document, part ${i + 1}`}
                name={`payable-${i}`}
                value={part.payable}
                options={options}
                onValue={(value) => choose(part, value)}
                error={unchosen[part.key] ?? e[`matches.${indexOf(part)}`]}
              />
            ),
          },
          {
            label: `Amount in ${currency}`,
            class: 'col-price',
            cell: (part, i) => (
              <CellInput
                label={`Amount in ${currency}, part ${i + 1}`}
                name={`amount-${i}`}
                inputMode="decimal"
                value={part.amount}
                onValue={(amount) => setParts((ps) => patchLine(ps, part.key, { amount }))}
                error={e[`matches.${indexOf(part)}.amount`]}
              />
            ),
          },
        ]}
      />
      <TotalsPanel
        rows={[
          { label: 'The line', value: minorMoney(total, currency), data: 'line-total' },
          { label: 'Placed', value: showMinor(placed, currency, minorMoney), data: 'placed' },
          {
            label: 'Still to place',
            value: showMinor(remaining, currency, minorMoney),
            strong: true,
            data: 'remaining',
            class: remaining === 0n ? 'ok' : 'error',
          },
        ]}
      />
    </FormDialog>
  );
}
