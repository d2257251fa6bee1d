import { useId, useState } from 'preact/hooks';
import { BmsApiError, finance, unwrap } from '../../../../client/index.js';
import { Button, ErrorMessage, Link, Notice, Select, Table } from '../../../components/ui.js';
import { api } from '../../../lib/api.js';
import { date, minorMoney, number } from '../../../lib/format.js';
import { plainDetail } from '../../../lib/messages.js';
import { refusalLine } from '../../../lib/refusals.js';
import type { ScreenProps } from '../../../lib/screen.js';
import { BankAccountFrame } from './account-frame.js';
import {
  guessDateFormat,
  guessMapping,
  mappingJson,
  PREVIEW_BYTES,
  readCsvHead,
  type Mapping,
  type MappingRole,
} from './statement-csv.js';

/**
 * A bank statement into the account: the file (CSV, OFX/QFX or CAMT.053), for CSV its columns
 * chosen from a preview of its first rows, then a check (a dry run: what would be imported, what is
 * a duplicate of an earlier import, what is refused and why, and whether the balances agree), then
 * the import itself.
 */

type Report = finance.StatementImportReport;
type DateFormat = (typeof finance.STATEMENT_DATE_FORMATS)[number];

const FORMATS = [
  { value: '', label: 'Detect from the file' },
  { value: 'csv', label: 'CSV' },
  { value: 'ofx', label: 'OFX or QFX' },
  { value: 'camt053', label: 'CAMT.053 (ISO 20022 XML)' },
];

/** 3 November 2026 as each date format writes it. */
const DATE_EXAMPLES: Record<DateFormat, string> = {
  'YYYY-MM-DD': '2026-11-03',
  'DD/MM/YYYY': '03/11/2026',
  'MM/DD/YYYY': '11/03/2026',
  'DD.MM.YYYY': '03.11.2026',
};

const ROLE_LABELS: Record<MappingRole, string> = {
  date: 'Date',
  description: 'Description',
  amount: 'Amount',
  debit: 'Debit (money out)',
  credit: 'Credit (money in)',
  reference: 'Reference',
};

const plural = (count: number, one: string, many = `${one}s`) =>
  `${number(count)} ${count === 1 ? one : many}`;

/**
 * A reason the service gives for a line or the file, written for people: shown as it says it, from a
 * capital, the cells it quotes (`31/13/2026`) as code.
 */
function Reason(props: { text: string }) {
  const text = props.text.charAt(0).toUpperCase() + props.text.slice(1);
  return <>{text.split('`').map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}</>;
}

/** A refused import: each line it names with its reason, or the refusal's own line. */
function importRefusal(err: unknown): string {
  const lines = (err instanceof BmsApiError ? (err.details ?? []) : []).flatMap((d) => {
    const line = /^line\.?(\d+)/.exec(d.field)?.[1];
    return line ? [`line ${line}: ${plainDetail(d.message)}`] : [];
  });
  if (lines.length === 0) return refusalLine(err);
  const shown = lines.slice(0, 5).join('; ') + (lines.length > 5 ? `; and ${lines.length - 5} more` : '');
  return `Nothing was imported: ${shown}`;
}

/** The file's first rows, and a choice of column for each value the service reads. */
function CsvColumns(props: {
  head: { header: string[]; rows: string[][] };
  mapping: Mapping;
  onMapping: (mapping: Mapping) => void;
  split: boolean;
  onSplit: (split: boolean) => void;
  dateFormat: DateFormat;
  onDateFormat: (format: DateFormat) => void;
}) {
  const { head, mapping, split } = props;
  const seen = new Set<string>();
  const labels = head.header.map((h, i) => {
    const label = h && !seen.has(h) ? h : `${h || 'Column'} (${i + 1})`;
    seen.add(label);
    return label;
  });
  const options = (none: string) => [
    { value: '', label: none },
    ...head.header.filter(Boolean).map((h) => ({ value: h, label: h })),
  ];
  const pick = (role: MappingRole, none: string) => (
    <Select
      label={ROLE_LABELS[role]}
      name={role}
      value={mapping[role]}
      options={options(none)}
      onValue={(value) => props.onMapping({ ...mapping, [role]: value })}
    />
  );
  const name = useId();
  return (
    <section class="panel" aria-labelledby="statement-columns">
      <h2 id="statement-columns">Columns</h2>
      <p class="hint">The first rows of the file: choose the column that holds each value.</p>
      <Table<{ key: number; cells: string[] }>
        caption="The first rows of the file"
        columns={labels.map((label, i) => ({ label, render: (row) => row.cells[i] ?? '' }))}
        rows={head.rows.map((cells, key) => ({ key, cells }))}
        rowKey={(row) => String(row.key)}
      />
      <div class="form-grid mapping-fields">
        {pick('date', 'Choose a column')}
        <Select
          label="Date format"
          name="date_format"
          value={props.dateFormat}
          options={finance.STATEMENT_DATE_FORMATS.map((f) => ({
            value: f,
            label: `${f} (${DATE_EXAMPLES[f]})`,
          }))}
          onValue={(value) => props.onDateFormat(value as DateFormat)}
        />
        {pick('description', 'Choose a column')}
        {pick('reference', 'None')}
      </div>
      <fieldset class="choice">
        <legend>Amounts are</legend>
        <label>
          <input type="radio" name={name} checked={!split} onChange={() => props.onSplit(false)} /> In one
          column, with a minus for money out
        </label>
        <label>
          <input type="radio" name={name} checked={split} onChange={() => props.onSplit(true)} /> In two
          columns: debit for money out, credit for money in
        </label>
      </fieldset>
      <div class="form-grid mapping-fields">
        {split ? (
          <>
            {pick('debit', 'Choose a column')}
            {pick('credit', 'Choose a column')}
          </>
        ) : (
          pick('amount', 'Choose a column')
        )}
      </div>
    </section>
  );
}

/** What a check or an import found: the counts, the balances, the warnings, refused and duplicate lines. */
function StatementReport(props: { report: Report; currency: string }) {
  const { report, currency } = props;
  const { counts } = report;
  const money = (minor: number | null) => minorMoney(minor, currency);
  const agrees =
    report.closing_balance !== null && report.statement_balance !== null
      ? report.closing_balance === report.statement_balance
      : null;
  return (
    <div class="import-report">
      <dl class="stat-grid import-counts">
        <div>
          <dt>Lines read</dt>
          <dd data-count="lines">{number(counts.lines)}</dd>
        </div>
        <div>
          <dt>{report.applied ? 'Imported' : 'To import'}</dt>
          <dd data-count="imported">{number(counts.imported)}</dd>
        </div>
        <div>
          <dt>Duplicates, skipped</dt>
          <dd data-count="duplicates">{number(counts.duplicates)}</dd>
        </div>
        <div class={counts.refused > 0 ? 'refused' : undefined}>
          <dt>Refused</dt>
          <dd data-count="refused">{number(counts.refused)}</dd>
        </div>
        <div>
          <dt>A rule suggests an account</dt>
          <dd data-count="suggested">{number(counts.suggested)}</dd>
        </div>
      </dl>
      {report.warnings.map((warning) => (
        <Notice key={warning} kind="warning">
          <p>
            <Reason text={warning} />
          </p>
        </Notice>
      ))}
      <dl class="facts statement-balances">
        <dt>Closing balance in the file</dt>
        <dd data-balance="file">
          {report.closing_balance === null ? 'Not stated' : money(report.closing_balance)}
        </dd>
        <dt>{report.applied ? 'Statement balance now' : 'Statement balance after the import'}</dt>
        <dd data-balance="statement">{money(report.statement_balance)}</dd>
        {agrees !== null ? (
          <>
            <dt>They</dt>
            <dd class={agrees ? 'ok' : 'error'}>{agrees ? 'Agree' : 'Disagree: check the file'}</dd>
          </>
        ) : null}
      </dl>
      {report.refused.length > 0 ? (
        <section aria-labelledby="refused-lines">
          <h3 id="refused-lines">Refused lines</h3>
          <Table
            caption="Refused lines"
            columns={[
              { label: 'Line', numeric: true, render: (r: Report['refused'][number]) => r.line },
              { label: 'Reason', render: (r) => <Reason text={r.reason} /> },
            ]}
            rows={report.refused}
            rowKey={(r) => String(r.line)}
          />
        </section>
      ) : null}
      {report.duplicates.length > 0 ? (
        <details class="group">
          <summary>Duplicates skipped ({number(counts.duplicates)})</summary>
          <Table
            caption="Duplicates skipped"
            columns={[
              { label: 'Line', numeric: true, render: (d: Report['duplicates'][number]) => d.line },
              { label: 'Date', render: (d) => date(d.date) },
              { label: 'Amount', numeric: true, render: (d) => money(d.amount) },
            ]}
            rows={report.duplicates}
            rowKey={(d) => String(d.line)}
          />
        </details>
      ) : null}
    </div>
  );
}

function ImportForm(props: { account: finance.BankAccount; onAgain: () => void }) {
  const { account } = props;
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [format, setFormat] = useState('');
  /** The file's first rows, when its content reads as CSV. */
  const [head, setHead] = useState<{ header: string[]; rows: string[][] } | null>(null);
  const [mapping, setMapping] = useState<Mapping>(guessMapping([]));
  const [split, setSplit] = useState(false);
  const [dateFormat, setDateFormat] = useState<DateFormat>('YYYY-MM-DD');
  const [checked, setChecked] = useState<Report | null>(null);
  const [done, setDone] = useState<Report | null>(null);
  const [skipRefused, setSkipRefused] = useState(false);
  const [busy, setBusy] = useState<'check' | 'import' | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reset = () => {
    setChecked(null);
    setDone(null);
    setSkipRefused(false);
    setError(null);
  };
  const read = (chosen: File | null) => {
    setFile(chosen);
    setHead(null);
    reset();
    if (!chosen) return;
    void chosen
      .slice(0, PREVIEW_BYTES)
      .text()
      .then((text) => {
        if (/^\s*(<|OFXHEADER)/i.test(text.replace(/^\uFEFF/, ''))) return;
        const found = readCsvHead(text);
        const guessed = guessMapping(found.header);
        const dateAt = found.header.indexOf(guessed.date);
        setHead(found);
        setMapping(guessed);
        setSplit(!guessed.amount && Boolean(guessed.debit || guessed.credit));
        setDateFormat(guessDateFormat(found.rows.map((r) => r[dateAt] ?? '')));
      });
  };
  const csv = format === 'csv' || (format === '' && head !== null);
  const sent = { ...mapping, ...(split ? { amount: '' } : { debit: '', credit: '' }) };

  const send = (dryRun: boolean) =>
    unwrap(
      api.value.finance.bankAccounts.importStatement({
        params: { id: account.id },
        query: {
          format: (format || undefined) as Report['format'] | undefined,
          dry_run: dryRun ? 'true' : 'false',
          // The check reports every refused line; the import refuses them all unless told to skip them.
          all_or_nothing: dryRun || skipRefused ? 'false' : 'true',
          ...(csv ? { mapping: mappingJson(sent), date_format: dateFormat } : {}),
        },
        body: { file: file! },
      }),
    );
  const run = (kind: 'check' | 'import') => {
    if (!file) {
      setError('Choose the statement file first.');
      return;
    }
    setBusy(kind);
    setError(null);
    if (kind === 'check') setChecked(null);
    send(kind === 'check').then(
      (answer) => {
        setBusy(null);
        if (kind === 'check') setChecked(answer.report);
        else setDone(answer.report);
      },
      (err: unknown) => {
        setBusy(null);
        setError(importRefusal(err));
      },
    );
  };

  if (done) {
    return (
      <>
        <Notice kind="success">
          <p>
            Imported {plural(done.counts.imported, 'line')} into {account.name}
            {done.counts.duplicates > 0 ? `; ${plural(done.counts.duplicates, 'duplicate')} skipped` : ''}
            {done.counts.refused > 0 ? `; ${plural(done.counts.refused, 'refused line')} left out` : ''}.{' '}
            <Link to={`/finance/bank-accounts/${account.id}`}>Reconcile them</Link>
          </p>
        </Notice>
        <StatementReport report={done} currency={account.currency} />
        <p>
          <Button onClick={props.onAgain}>Import another file</Button>
        </p>
      </>
    );
  }

  const counts = checked?.counts;
  const importable = counts ? counts.imported : 0;
  const blocked = Boolean(counts && counts.refused > 0 && !skipRefused);
  return (
    <>
      <section class="panel" aria-labelledby="statement-file">
        <h2 id="statement-file">The file</h2>
        <p class="hint">
          As your bank exports it: CSV, OFX or QFX, or CAMT.053. A line an earlier import holds is skipped, so
          overlapping statements are safe. Nothing is imported until you have checked the file.
        </p>
        <div class="form-row">
          <div class="field import-file">
            <label for={fileId}>Statement file</label>
            <input
              id={fileId}
              type="file"
              name="file"
              accept=".csv,.ofx,.qfx,.xml,text/csv,application/xml,text/xml"
              onChange={(e) => read(e.currentTarget.files?.[0] ?? null)}
            />
          </div>
          <Select
            label="Format"
            name="format"
            value={format}
            options={FORMATS}
            onValue={(value) => {
              setFormat(value);
              reset();
            }}
          />
        </div>
      </section>
      {csv && head ? (
        <CsvColumns
          head={head}
          mapping={mapping}
          onMapping={(m) => {
            setMapping(m);
            reset();
          }}
          split={split}
          onSplit={(s) => {
            setSplit(s);
            reset();
          }}
          dateFormat={dateFormat}
          onDateFormat={(f) => {
            setDateFormat(f);
            reset();
          }}
        />
      ) : null}
      <div class="form-actions">
        <Button kind={checked ? 'secondary' : 'primary'} busy={busy === 'check'} onClick={() => run('check')}>
          Check the file (dry run)
        </Button>
      </div>
      <ErrorMessage message={error} />
      {checked && counts ? (
        <section class="panel" aria-labelledby="statement-check">
          <h2 id="statement-check">What the file holds</h2>
          <p role="status" class="import-status">
            {plural(counts.lines, 'line')} read: {number(counts.imported)} to import,{' '}
            {number(counts.duplicates)} already imported, {number(counts.refused)} refused.
          </p>
          <StatementReport report={checked} currency={account.currency} />
          {counts.refused > 0 && counts.imported > 0 ? (
            <label class="checkbox">
              <input
                type="checkbox"
                name="skip_refused"
                checked={skipRefused}
                onChange={(e) => setSkipRefused(e.currentTarget.checked)}
              />
              Import the readable lines and leave the refused ones out
            </label>
          ) : null}
          {blocked ? (
            <p class="hint">
              {counts.imported > 0
                ? 'Correct the refused lines and check the file again, or leave them out.'
                : 'Every line is refused: correct the file, or the columns and date format, and check it again.'}
            </p>
          ) : null}
          <div class="form-actions">
            <Button
              kind="primary"
              busy={busy === 'import'}
              disabled={importable === 0 || blocked}
              onClick={() => run('import')}
            >
              Import {plural(importable, 'line')}
            </Button>
          </div>
        </section>
      ) : null}
    </>
  );
}

export default function StatementImport({ params }: ScreenProps) {
  // Another file starts a fresh form (its file input emptied).
  const [round, setRound] = useState(0);
  return (
    <BankAccountFrame id={params.id!} page="import">
      {(account) => <ImportForm key={round} account={account} onAgain={() => setRound((r) => r + 1)} />}
    </BankAccountFrame>
  );
}
