import { useId, useState } from 'preact/hooks';
import { BmsApiError, unwrap, type contract, type imports } from '../../client/index.js';
import { describeError } from '../lib/forms.js';
import { plainDetail } from '../lib/messages.js';
import { api, can } from '../lib/api.js';
import { Button, Dialog, ErrorMessage, Notice } from './ui.js';

/**
 * "Import CSV" on the customers, products, vendors, employees, exchange rates and public holidays
 * lists (docs/decisions.md D160): the file is checked by a dry run first, the report shows what each
 * row would do (created, updated, or refused and why), then the rows are imported, all or nothing or
 * skipping the refused ones.
 */

export type ImportKind = 'customers' | 'products' | 'vendors' | 'employees' | 'exchange_rates' | 'holidays';

/**
 * Each kind's operation, what one row is and what many are, what matches a row to an existing record,
 * its usual columns.
 */
const IMPORTS = {
  customers: {
    operation: 'importCustomers',
    one: 'customer',
    many: 'customers',
    key: 'email',
    columns: 'name, email, company, phone, address.city',
  },
  products: {
    operation: 'importProducts',
    one: 'product',
    many: 'products',
    key: 'SKU',
    columns: 'name, sku, price, currency, stock',
  },
  vendors: {
    operation: 'importVendors',
    one: 'vendor',
    many: 'vendors',
    key: 'email',
    columns: 'name, email, phone, currency, tax_id',
  },
  employees: {
    operation: 'importEmployees',
    one: 'employee',
    many: 'employees',
    key: 'email',
    columns: 'first_name, last_name, email, department_id, position, hire_date',
  },
  exchange_rates: {
    operation: 'importExchangeRates',
    one: 'rate',
    many: 'exchange rates',
    key: 'currency and date',
    columns: 'date, currency, rate',
  },
  holidays: {
    operation: 'importHolidays',
    one: 'holiday',
    many: 'public holidays',
    key: 'date',
    columns: 'date, name',
  },
} as const satisfies Record<
  ImportKind,
  { operation: keyof typeof contract.imports; one: string; many: string; key: string; columns: string }
>;

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** Line numbers as a sentence's end: "line 3", "lines 2, 4 and 5", "lines 2, 3, 4, … and 37 more". */
function linesText(lines: number[]): string {
  if (lines.length === 1) return `line ${lines[0]}`;
  const shown = lines.slice(0, 8);
  const more = lines.length - shown.length;
  if (more > 0) return `lines ${shown.join(', ')}, … and ${more} more`;
  return `lines ${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}`;
}

/**
 * What a broken file or a refused import says: the service's message, and what its details add (the
 * file's line, or the rows refused when the data changed since the check: `line.3.email`).
 */
function refusalOf(err: unknown): string {
  const { message } = describeError(err);
  if (!(err instanceof BmsApiError)) return message;
  const rows = (err.details ?? []).flatMap((d) => {
    const row = /^line\.(\d+)\.(.+)$/.exec(d.field);
    return row ? [`line ${row[1]}, ${row[2]}: ${plainDetail(d.message)}`] : [];
  });
  if (rows.length > 0) {
    const shown = rows.slice(0, 5).join('; ') + (rows.length > 5 ? '; …' : '');
    return `Nothing was imported: rows are refused now (${shown}). Check the file again.`;
  }
  const extra = (err.details ?? []).filter((d) => d.field === 'file').map((d) => plainDetail(d.message));
  // What is wrong with the file says more than the general line of a refused form.
  return extra.length > 0 ? extra.join(' ') : message;
}

/** The dry run's (or the import's) report: counts, columns, refused rows, the rest summarised. */
function ImportReportView(props: { report: imports.ImportReport; kind: ImportKind }) {
  const { report, kind } = props;
  const { one, key } = IMPORTS[kind];
  const { counts, columns } = report;
  const refused = report.rows.filter((row) => row.action === 'refused');
  const creates = report.rows.filter((row) => row.action === 'create').map((row) => row.line);
  const updates = report.rows.filter((row) => row.action === 'update').map((row) => row.line);
  const errors = refused.flatMap((row) =>
    (row.errors.length > 0 ? row.errors : [{ field: '', message: 'Refused' }]).map((e, i) => ({
      key: `${row.line}-${i}`,
      line: row.line,
      field: e.field === 'row' ? '' : e.field,
      message: plainDetail(e.message),
    })),
  );
  const shownErrors = errors.slice(0, 100);
  return (
    <div class="import-report">
      <dl class="stat-grid import-counts">
        <div>
          <dt>{report.applied ? 'Created' : 'To create'}</dt>
          <dd data-count="create">{counts.create}</dd>
        </div>
        <div>
          <dt>{report.applied ? 'Updated' : 'To update'}</dt>
          <dd data-count="update">{counts.update}</dd>
        </div>
        <div class={counts.refused > 0 ? 'refused' : undefined}>
          <dt>{report.applied ? 'Skipped (refused)' : 'Refused'}</dt>
          <dd data-count="refused">{counts.refused}</dd>
        </div>
      </dl>
      <dl class="import-columns">
        <div>
          <dt>Columns read</dt>
          <dd data-columns="mapped">
            {columns.mapped.length > 0 ? columns.mapped.map((c) => <code key={c}>{c}</code>) : 'None'}
          </dd>
        </div>
        {columns.unknown.length > 0 ? (
          <div>
            <dt>Unknown columns, ignored</dt>
            <dd data-columns="unknown">
              {columns.unknown.map((c) => (
                <code key={c}>{c}</code>
              ))}
            </dd>
          </div>
        ) : null}
      </dl>
      {creates.length > 0 || updates.length > 0 ? (
        <ul class="import-summary">
          {creates.length > 0 ? (
            <li>
              {report.applied ? 'Created' : 'New'}: {plural(creates.length, one)}, from {linesText(creates)}.
            </li>
          ) : null}
          {updates.length > 0 ? (
            <li>
              {report.applied ? 'Updated' : 'Updates'}: {plural(updates.length, `existing ${one}`)} matched by{' '}
              {key}, from {linesText(updates)}.
            </li>
          ) : null}
        </ul>
      ) : null}
      {errors.length > 0 ? (
        <div class="table-wrap import-refused">
          <table>
            <caption>
              Refused rows{errors.length > shownErrors.length ? ` (the first ${shownErrors.length})` : ''}
            </caption>
            <thead>
              <tr>
                <th scope="col" class="numeric">
                  Line
                </th>
                <th scope="col">Field</th>
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody>
              {shownErrors.map((e) => (
                <tr key={e.key}>
                  <td class="numeric">{e.line}</td>
                  <td>{e.field ? <code>{e.field}</code> : 'The row'}</td>
                  <td>{e.message}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}

function ImportForm(props: { kind: ImportKind; onImported: () => void; onClose: () => void }) {
  const { kind, onImported, onClose } = props;
  const { operation, one, key, columns } = IMPORTS[kind];
  const fileId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [checked, setChecked] = useState<imports.ImportReport | null>(null);
  const [done, setDone] = useState<imports.ImportReport | null>(null);
  const [skipRefused, setSkipRefused] = useState(false);
  const [busy, setBusy] = useState<'check' | 'import' | null>(null);
  const [error, setError] = useState<string | null>(null);

  const send = (dryRun: boolean, allOrNothing: boolean) =>
    unwrap(
      api.value.imports[operation]({
        query: { dry_run: dryRun ? 'true' : 'false', all_or_nothing: allOrNothing ? 'true' : 'false' },
        body: { file: file! },
      }),
    );

  const check = () => {
    if (!file) {
      setError('Choose a CSV file first.');
      return;
    }
    setBusy('check');
    setError(null);
    setChecked(null);
    setSkipRefused(false);
    send(true, true).then(
      (answer) => {
        setChecked(answer.data);
        setBusy(null);
      },
      (err: unknown) => {
        setError(refusalOf(err));
        setBusy(null);
      },
    );
  };

  const importRows = () => {
    if (!file || !checked) return;
    setBusy('import');
    setError(null);
    send(false, !skipRefused).then(
      (answer) => {
        setDone(answer.data);
        setBusy(null);
        onImported();
      },
      (err: unknown) => {
        setError(refusalOf(err));
        setBusy(null);
      },
    );
  };

  if (done) {
    const { counts } = done;
    return (
      <div class="import-form">
        <Notice kind="success">
          <p>
            {counts.create + counts.update === 0
              ? 'Nothing was imported.'
              : `Imported ${plural(counts.create + counts.update, 'row')}: ${plural(counts.create, one)} created, ${counts.update} updated.`}
            {counts.refused > 0
              ? ` ${plural(counts.refused, 'refused row was', 'refused rows were')} skipped.`
              : ''}
          </p>
        </Notice>
        <ImportReportView report={done} kind={kind} />
        <div class="dialog-actions">
          <Button kind="primary" onClick={onClose}>
            Close
          </Button>
        </div>
      </div>
    );
  }

  const counts = checked?.counts;
  const valid = counts ? counts.create + counts.update : 0;
  const refused = counts?.refused ?? 0;
  const importable = counts ? (skipRefused ? valid : counts.rows) : 0;
  return (
    <div class="import-form">
      <p class="dialog-body">
        A CSV file in UTF-8 whose first row names the columns as an export writes them (<code>{columns}</code>
        , …). A row with the {key} of an existing {one} updates it; the others are added. Check the file
        first: nothing changes until you import.
      </p>
      <div class="field import-file">
        <label for={fileId}>CSV file</label>
        <input
          id={fileId}
          type="file"
          name="file"
          accept=".csv,text/csv"
          onChange={(e) => {
            setFile(e.currentTarget.files?.[0] ?? null);
            setChecked(null);
            setSkipRefused(false);
            setError(null);
          }}
        />
      </div>
      <div class="dialog-actions import-check">
        <Button kind={checked ? 'secondary' : 'primary'} busy={busy === 'check'} onClick={check}>
          Check file
        </Button>
      </div>
      <ErrorMessage message={error} />
      {checked && counts ? (
        <section class="import-checked" aria-label="What the file would do">
          <p role="status" class="import-status">
            {plural(counts.rows, 'row')} read: {counts.create} to create, {counts.update} to update,{' '}
            {counts.refused} refused.
          </p>
          <ImportReportView report={checked} kind={kind} />
          {refused > 0 && valid > 0 ? (
            <label class="checkbox">
              <input
                type="checkbox"
                name="skip_refused"
                checked={skipRefused}
                onChange={(e) => setSkipRefused(e.currentTarget.checked)}
              />
              Import the valid rows and skip refused ones
            </label>
          ) : null}
          {refused > 0 && !skipRefused ? (
            <p class="hint">
              {valid > 0
                ? 'Correct the refused rows and check the file again, or import the valid rows only.'
                : 'Every row is refused: correct the file and check it again.'}
            </p>
          ) : null}
        </section>
      ) : null}
      <div class="dialog-actions">
        <Button onClick={onClose}>Cancel</Button>
        {checked ? (
          <Button
            kind="primary"
            busy={busy === 'import'}
            disabled={importable === 0 || (refused > 0 && !skipRefused)}
            onClick={importRows}
          >
            Import {plural(importable, 'row')}
          </Button>
        ) : null}
      </div>
    </div>
  );
}

/** "Import CSV" and its dialog, for a role that may import `kind`; `onImported` refreshes the list. */
export function ImportButton(props: { kind: ImportKind; onImported: () => void }) {
  const [open, setOpen] = useState(false);
  if (!can(IMPORTS[props.kind].operation)) return null;
  return (
    <>
      <Button onClick={() => setOpen(true)}>Import CSV</Button>
      <Dialog
        title={`Import ${IMPORTS[props.kind].many} from CSV`}
        open={open}
        onClose={() => setOpen(false)}
      >
        <ImportForm kind={props.kind} onImported={props.onImported} onClose={() => setOpen(false)} />
      </Dialog>
    </>
  );
}
