import { useState } from 'preact/hooks';
import { finance, unwrap } from '../../../client/index.js';
import { accountOptions, useAccounts } from './chart.js';
import { currencyChoices, useBaseCurrency } from '../../lib/currencies.js';
import { CellInput, CellSelect, LineTable, patchLine, TotalsPanel } from '../../components/line-editor.js';
import { amountAdvice, priceMinor, showMinor } from '../../lib/lines.js';
import { Button, ErrorMessage, Field, Link, Loading, Select } from '../../components/ui.js';
import { minorMoney, today } from '../../lib/format.js';
import { useDraft, useForm, type FieldErrors } from '../../lib/forms.js';
import { summaryOf } from '../../lib/refusals.js';
import { navigate } from '../../lib/router.js';
import { api } from '../../lib/api.js';
import { RecordHeader } from '../../components/record.js';

const JOURNAL = { to: '/finance/journal', name: 'Journal' };

/**
 * A manual journal entry: lines of an account and a debit or a credit, the totals and their
 * difference shown while typing (exact integer minor units); posted only when it balances.
 */

interface LineDraft {
  key: number;
  account: string;
  debit: string;
  credit: string;
}

let nextKey = 1;
const newLine = (): LineDraft => ({ key: nextKey++, account: '', debit: '', credit: '' });

interface Sums {
  debit: bigint;
  credit: bigint;
  /** False while an amount cannot be read. */
  readable: boolean;
}

function sumsOf(lines: LineDraft[], currency: string): Sums {
  let debit = 0n;
  let credit = 0n;
  let readable = true;
  for (const line of lines) {
    for (const side of ['debit', 'credit'] as const) {
      const text = line[side].trim();
      if (text === '') continue;
      const minor = priceMinor(text, currency);
      if (minor === null) readable = false;
      else if (side === 'debit') debit += minor;
      else credit += minor;
    }
  }
  return { debit, credit, readable };
}

export default function JournalNew() {
  const base = useBaseCurrency();
  const accounts = useAccounts();
  const { draft, bind } = useDraft(() => ({ date: today(), description: '', currency: '' }));
  const currency = draft.currency || base.currency;
  const [lines, setLines] = useState<LineDraft[]>(() => [newLine(), newLine()]);
  const [local, setLocal] = useState<FieldErrors>({});
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm();

  const change = (key: number, patch: Partial<LineDraft>) => {
    setRefusal(null);
    setLines((all) => patchLine(all, key, patch));
  };

  const sums = sumsOf(lines, currency);
  const difference = sums.debit - sums.credit;
  const balanced = sums.readable && difference === 0n && sums.debit > 0n;

  // Where the body's `debits.N` and `credits.N` come from, so a refusal shows on its line.
  const debitLines: number[] = [];
  const creditLines: number[] = [];
  lines.forEach((line, i) => {
    if (line.debit.trim() !== '') debitLines.push(i);
    if (line.credit.trim() !== '') creditLines.push(i);
  });
  const serverErrors: FieldErrors = {};
  for (const [field, message] of Object.entries(form.errors)) {
    const m = /^(debits|credits)\.(\d+)\.(account|amount)$/.exec(field);
    if (!m) {
      serverErrors[field] = message;
      continue;
    }
    const index = (m[1] === 'debits' ? debitLines : creditLines)[Number(m[2])];
    if (index === undefined) continue;
    const key = m[3] === 'account' ? 'account' : m[1] === 'debits' ? 'debit' : 'credit';
    serverErrors[`lines.${index}.${key}`] ??= message;
  }
  const errors = { ...serverErrors, ...local };

  const post = (event: Event) => {
    event.preventDefault();
    const refused: FieldErrors = {};
    lines.forEach((line, i) => {
      const debit = line.debit.trim();
      const credit = line.credit.trim();
      const debitAdvice = amountAdvice(debit, currency);
      const creditAdvice = amountAdvice(credit, currency);
      if (debitAdvice) refused[`lines.${i}.debit`] = debitAdvice;
      if (creditAdvice) refused[`lines.${i}.credit`] = creditAdvice;
      if (debit !== '' && credit !== '')
        refused[`lines.${i}.credit`] = 'A line is a debit or a credit, not both';
      if ((debit !== '' || credit !== '') && !line.account)
        refused[`lines.${i}.account`] = 'Choose an account';
      if (debit === '' && credit === '' && line.account)
        refused[`lines.${i}.debit`] = 'Give a debit or a credit, or remove the line';
    });
    setLocal(refused);
    if (Object.keys(refused).length > 0) {
      setRefusal('Check the highlighted fields.');
      return;
    }
    if (!balanced) {
      setRefusal(
        sums.debit === 0n && sums.credit === 0n
          ? 'Give the amounts: at least one debit and one credit.'
          : `Debits and credits must be equal before the entry can be posted: they differ by ${showMinor(
              difference < 0n ? -difference : difference,
              currency,
              minorMoney,
            )}.`,
      );
      return;
    }
    setRefusal(null);
    const side = (key: 'debit' | 'credit') =>
      lines
        .filter((line) => line[key].trim() !== '')
        .map((line) => ({ account: line.account, amount: Number(priceMinor(line[key], currency)) }));
    const body = {
      date: draft.date || undefined,
      description: draft.description.trim(),
      currency,
      debits: side('debit'),
      credits: side('credit'),
    };
    void form
      .submit(finance.CreateJournalEntryBodySchema, body, (value) =>
        unwrap(api.value.finance.journal.createJournalEntry({ body: value })),
      )
      .then((saved) => {
        if (saved) navigate(`/finance/journal?posted=${saved.entry_id}`);
      });
  };

  if (accounts.error) return <ErrorMessage message={accounts.error} onRetry={accounts.reload} />;
  if (!accounts.data) return <Loading />;
  const choices = accountOptions(accounts.data, 'Choose an account');
  const show = (minor: bigint) => showMinor(minor, currency, minorMoney);

  return (
    <>
      <RecordHeader list={JOURNAL} title="New journal entry" />
      <form class="document-form" noValidate onSubmit={post}>
        <div class="form-row">
          <Field label="Date" type="date" {...bind('date', errors)} />
          <Field label="Description" {...bind('description', errors)} required />
          <Select
            label="Currency"
            {...bind('currency', errors)}
            options={currencyChoices(`${base.currency} (base currency)`)}
          />
        </div>
        <h2>Lines</h2>
        <LineTable
          caption="Lines"
          class="items-table journal-lines"
          noun="line"
          minimum={2}
          lines={lines}
          columns={[
            {
              label: 'Account',
              cellClass: 'line-wide',
              cell: (line, index) => (
                <CellSelect
                  label={`Account, line ${index + 1}`}
                  name={`lines.${index}.account`}
                  value={line.account}
                  options={choices}
                  onValue={(account) => change(line.key, { account })}
                  error={errors[`lines.${index}.account`]}
                />
              ),
            },
            ...(['debit', 'credit'] as const).map((side) => ({
              label: side === 'debit' ? 'Debit' : 'Credit',
              class: 'col-price',
              cell: (line: LineDraft, index: number) => (
                <CellInput
                  label={`${side === 'debit' ? 'Debit' : 'Credit'} in ${currency}, line ${index + 1}`}
                  name={`lines.${index}.${side}`}
                  inputMode="decimal"
                  value={line[side]}
                  onValue={(value) => change(line.key, { [side]: value })}
                  error={errors[`lines.${index}.${side}`]}
                  hint={amountAdvice(line[side], currency)}
                />
              ),
            })),
          ]}
          onRemove={(key) => setLines((all) => all.filter((l) => l.key !== key))}
          onAdd={() => setLines((all) => [...all, newLine()])}
          error={errors.debits ?? errors.credits}
        />
        <TotalsPanel
          rows={[
            { label: 'Total debits', value: sums.readable ? show(sums.debit) : '—', data: 'debits' },
            { label: 'Total credits', value: sums.readable ? show(sums.credit) : '—', data: 'credits' },
            {
              label: 'Difference',
              value: sums.readable ? show(difference < 0n ? -difference : difference) : '—',
              strong: true,
              class: balanced ? 'ok' : difference !== 0n ? 'error' : undefined,
              data: 'difference',
            },
          ]}
          hint={
            <p class="balance-state" id="journal-balance" data-balance="">
              {!sums.readable
                ? `Amounts in ${currency} show once they are numbers.`
                : balanced
                  ? 'Balanced: the entry can be posted.'
                  : difference > 0n
                    ? 'Debits exceed credits: the entry cannot be posted until they are equal.'
                    : difference < 0n
                      ? 'Credits exceed debits: the entry cannot be posted until they are equal.'
                      : 'Give at least one debit and one credit.'}
            </p>
          }
        />
        <ErrorMessage message={refusal ?? summaryOf(form)} />
        <div class="form-actions">
          <Button type="submit" kind="primary" busy={form.busy} aria-describedby="journal-balance">
            Post entry
          </Button>
          <Link to="/finance/journal">Cancel</Link>
        </div>
      </form>
    </>
  );
}
