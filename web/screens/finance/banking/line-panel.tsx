import type { ComponentChildren } from 'preact';
import type { finance } from '../../../../client/index.js';
import { ConfirmButton } from '../../../components/confirm.js';
import { Badge, Button, ErrorMessage, Link, Loading } from '../../../components/ui.js';
import { date, minorMoney } from '../../../lib/format.js';
import type { Load } from '../../../lib/forms.js';
import { accountName } from '../chart.js';
import { BANK_LINE_STATUS_LABELS, BANK_MATCH_LABELS, SUGGESTION_KIND_LABELS } from '../labels.js';
import { LineAmount } from './statement-lines.js';

/**
 * The chosen statement line beside the list: what it is, then what it may have paid (the service's
 * suggestions, best first, each matched with one click) and the other ways to reconcile it; or, once
 * matched or excluded, what it was matched to and the way back.
 */

type Line = finance.BankTransaction;

/** What the panel's buttons do; absent for a role that may not. */
export interface LineActions {
  accept?: (suggestion: finance.BankSuggestion) => void;
  split?: () => void;
  categorise?: () => void;
  exclude?: () => void;
  rule?: () => void;
  unmatch?: () => Promise<unknown>;
}

/** A key shown on the button it presses. */
const Key = (props: { children: string }) => <kbd aria-hidden="true">{props.children}</kbd>;

function Suggestions(props: {
  line: Line;
  load: Load<finance.BankSuggestion[]>;
  currency: string;
  accept?: LineActions['accept'];
  busy: boolean;
}) {
  const { load, accept } = props;
  /** A document owing less than the line: matching it opens the split for the rest. */
  const partOfLine = (s: finance.BankSuggestion) =>
    (s.kind === 'invoice' || s.kind === 'bill') && s.amount < Math.abs(props.line.amount);
  if (load.error) return <ErrorMessage message={load.error} onRetry={load.reload} />;
  if (!load.data) return <Loading label="Looking for what it paid…" />;
  if (load.data.length === 0) {
    return (
      <p class="muted">
        Nothing open matches this line: match it to several documents, categorise it, or exclude it.
      </p>
    );
  }
  return (
    <ol class="suggestions">
      {load.data.map((s, i) => (
        <li
          key={`${s.kind}-${s.invoice_id ?? s.bill_id ?? s.journal_line_id ?? s.rule_id}`}
          class="suggestion"
        >
          <div class="suggestion-text">
            <span class="suggestion-label">
              <strong>{s.label}</strong>{' '}
              <Badge value={`kind-${s.kind}`} label={SUGGESTION_KIND_LABELS[s.kind]} />
            </span>
            <span class="suggestion-reason">{s.reason}</span>
            <span class="suggestion-meta">
              Score {s.score} of 100{s.date ? ` · dated ${date(s.date)}` : ''}
            </span>
          </div>
          <span class="suggestion-amount">{minorMoney(s.amount, props.currency)}</span>
          {accept ? (
            <Button
              kind={i === 0 ? 'primary' : 'secondary'}
              busy={props.busy && i === 0}
              disabled={props.busy}
              aria-keyshortcuts={i === 0 ? 'Enter' : undefined}
              onClick={() => accept(s)}
            >
              {s.kind === 'rule' ? 'Categorise' : 'Match'}
              <span class="visually-hidden"> to {s.label}</span>
              {partOfLine(s) ? '…' : null}
              {i === 0 ? <Key>Enter</Key> : null}
            </Button>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

/** What a match names: the document as a link to its page, the account, or the ledger line. */
function matchTarget(m: finance.BankMatch, accounts: finance.Account[] | undefined): ComponentChildren {
  if (m.invoice_id) return <Link to={`/invoices/${m.invoice_id}`}>the invoice</Link>;
  if (m.bill_id) return <Link to={`/finance/bills/${m.bill_id}`}>the bill</Link>;
  if (m.kind === 'account' && m.account_code) return accountName(accounts, m.account_code);
  return 'money the ledger held already';
}

function Matches(props: { line: Line; currency: string; accounts: finance.Account[] | undefined }) {
  const { line } = props;
  return (
    <ul class="plain-list matches">
      {line.matches.map((m) => (
        <li key={m.journal_line_id}>
          <span>
            {BANK_MATCH_LABELS[m.kind]}: {matchTarget(m, props.accounts)}
          </span>
          <span class="numeric">{minorMoney(m.amount, props.currency)}</span>
        </li>
      ))}
    </ul>
  );
}

export function LinePanel(props: {
  line: Line;
  currency: string;
  accounts: finance.Account[] | undefined;
  suggestions: Load<finance.BankSuggestion[]>;
  actions: LineActions;
  busy: boolean;
}) {
  const { line, actions, currency } = props;
  const recorded = line.matches.some((m) => m.recorded !== null);
  return (
    <section class="panel line-panel" aria-labelledby="line-title">
      <h2 id="line-title">{line.description}</h2>
      <dl class="facts">
        <dt>Date</dt>
        <dd>{date(line.date)}</dd>
        <dt>{line.amount < 0 ? 'Money out' : 'Money in'}</dt>
        <dd>
          <LineAmount amount={line.amount} currency={currency} />
        </dd>
        {line.reference ? (
          <>
            <dt>Reference</dt>
            <dd class="mono">{line.reference}</dd>
          </>
        ) : null}
        <dt>Status</dt>
        <dd>
          <Badge value={line.status} label={BANK_LINE_STATUS_LABELS[line.status]} />
        </dd>
      </dl>
      {line.status === 'unmatched' ? (
        <>
          <h3>What it may have paid</h3>
          <Suggestions
            line={line}
            load={props.suggestions}
            currency={currency}
            accept={actions.accept}
            busy={props.busy}
          />
          <div class="line-actions">
            {actions.split ? <Button onClick={actions.split}>Match to several…</Button> : null}
            {actions.categorise ? (
              <Button aria-keyshortcuts="c" onClick={actions.categorise}>
                Categorise… <Key>c</Key>
              </Button>
            ) : null}
            {actions.exclude ? (
              <Button aria-keyshortcuts="e" disabled={props.busy} onClick={actions.exclude}>
                Exclude <Key>e</Key>
              </Button>
            ) : null}
            {actions.rule ? <Button onClick={actions.rule}>Make a rule from this line…</Button> : null}
          </div>
        </>
      ) : (
        <>
          <h3>{line.status === 'matched' ? 'Matched to' : 'Excluded'}</h3>
          {line.status === 'matched' ? (
            <Matches line={line} currency={currency} accounts={props.accounts} />
          ) : (
            <p class="muted">Set aside: nothing was posted for it.</p>
          )}
          {actions.unmatch ? (
            <div class="line-actions">
              <ConfirmButton
                kind="secondary"
                label={line.status === 'matched' ? 'Unmatch' : 'Bring back'}
                title={line.status === 'matched' ? 'Undo this match?' : 'Bring this line back?'}
                confirmLabel={line.status === 'matched' ? 'Unmatch' : 'Bring back'}
                onConfirm={actions.unmatch}
              >
                <p>
                  The line goes back to the lines to reconcile.
                  {recorded
                    ? ' What this match recorded is reversed, dated the line’s date: an invoice or bill it paid owes the amount again.'
                    : ''}
                </p>
              </ConfirmButton>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}
