import { useEffect, useRef, useState } from 'preact/hooks';
import { finance, unwrap } from '../../../../client/index.js';
import { OutcomeMessage, useOutcome } from '../../../components/outcome.js';
import { PagedList } from '../../../components/paged-list.js';
import { StatusTabs } from '../../../components/status-tabs.js';
import { Button, Dialog, Link, Pager } from '../../../components/ui.js';
import { api, can } from '../../../lib/api.js';
import { minorMoney } from '../../../lib/format.js';
import { useLoad, type Load } from '../../../lib/forms.js';
import { usePagedList } from '../../../lib/list-query.js';
import { oneOf, pagesOf } from '../../../lib/lists.js';
import { refusalLine } from '../../../lib/refusals.js';
import { here, navigate, withQuery } from '../../../lib/router.js';
import type { ScreenProps } from '../../../lib/screen.js';
import { accountName, useAccounts } from '../chart.js';
import { BANK_LINE_STATUS_LABELS } from '../labels.js';
import { BankAccountFrame } from './account-frame.js';
import { CategoriseDialog, SplitDialog } from './line-dialogs.js';
import { LinePanel, type LineActions } from './line-panel.js';
import { RuleForm, ruleWords } from './rule-form.js';
import { StatementLines } from './statement-lines.js';

/**
 * Reconcile a bank account: its statement lines on the left (those to reconcile unless the URL's
 * `status` says matched or excluded), the chosen one on the right with what it may have paid. A line
 * is matched with one click or Enter, split across documents, categorised, excluded, or made into a
 * rule; the keys move from one line to the next, so a day's lines go by without the mouse.
 */

const PAGE_SIZE = 25;
const OTHER_TABS = ['matched', 'excluded'] as const;

type Line = finance.BankTransaction;

/** Keys typed into a field, or meant for an open dialog, are not the screen's. */
const typing = (target: EventTarget | null) =>
  target instanceof Element &&
  (target.closest('input, select, textarea, [contenteditable="true"], dialog') !== null ||
    document.querySelector('dialog[open]') !== null);

export default function Reconcile({ params }: ScreenProps) {
  return (
    <BankAccountFrame id={params.id!} page="reconcile">
      {(account) => <Workspace account={account} />}
    </BankAccountFrame>
  );
}

function Workspace({ account }: { account: finance.BankAccount }) {
  const { currency } = account;
  const status = oneOf(here.value.query, 'status', OTHER_TABS) ?? 'unmatched';
  const list = usePagedList(
    PAGE_SIZE,
    (paging) =>
      api.value.finance.bankTransactions.listBankTransactions({
        query: { ...paging, bank_account_id: account.id, status },
      }),
    (answer) => ({ rows: answer.bank_transactions, total: answer.total_count }),
    [account.id, status],
  );
  const accounts = useAccounts();
  const outcome = useOutcome();
  /** What is being done: to a line (its id), or to every line (`all`). */
  const [busy, setBusy] = useState<string | null>(null);
  const [dialog, setDialog] = useState<'split' | 'categorise' | 'rule' | null>(null);
  /** The document the split begins with: a suggestion owing less than the line. */
  const [splitFirst, setSplitFirst] = useState<finance.BankSuggestion | undefined>(undefined);
  const split = (first?: finance.BankSuggestion) => {
    setSplitFirst(first);
    setDialog('split');
  };
  const listRef = useRef<HTMLUListElement>(null);
  // What was done last belongs to the tab it was done in.
  useEffect(() => outcome.done(null), [status]);

  // A line acted on leaves this tab at once, before the list is loaded again.
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => setGone(new Set()), [list.data]);
  const rows = (list.data?.rows ?? []).filter((r) => !gone.has(r.id));
  const shown = list.data && { rows, total: list.data.total };

  // The chosen line by id; once it leaves, the one that took its place.
  const [chosen, setChosen] = useState<{ id: string | null; index: number }>({ id: null, index: 0 });
  const found = rows.findIndex((r) => r.id === chosen.id);
  const index = found >= 0 ? found : Math.max(0, Math.min(chosen.index, rows.length - 1));
  const line: Line | undefined = rows[index];
  const choose = (i: number) => setChosen({ id: rows[i]?.id ?? null, index: i });

  const suggestionsLoad = useLoad(
    async () => ({
      id: line?.id,
      list:
        line?.status === 'unmatched'
          ? (
              await unwrap(
                api.value.finance.bankTransactions.getBankTransactionSuggestions({ params: { id: line.id } }),
              )
            ).suggestions
          : [],
    }),
    [line?.id, line?.status],
  );
  // Never the suggestions of the line chosen before: Enter would match them to this one.
  const suggestions: Load<finance.BankSuggestion[]> = {
    ...suggestionsLoad,
    data: suggestionsLoad.data?.id === line?.id ? suggestionsLoad.data?.list : undefined,
  };

  /** Runs an action on `target` (or every line); when done it leaves the tab and the next is chosen. */
  const act = <T,>(target: Line | null, work: () => Promise<T>, done: (answer: T) => string) => {
    if (busy) return;
    setBusy(target?.id ?? 'all');
    work().then(
      (answer) => {
        setBusy(null);
        outcome.done(done(answer));
        if (target) setGone((g) => new Set(g).add(target.id));
        list.reload();
        listRef.current?.focus();
      },
      (err: unknown) => {
        setBusy(null);
        outcome.failed(refusalLine(err));
      },
    );
  };
  const calls = api.value.finance.bankTransactions;
  const accept = (target: Line, s: finance.BankSuggestion) => {
    if (s.kind === 'rule' && s.account_code) {
      const code = s.account_code;
      act(
        target,
        () =>
          unwrap(
            calls.categoriseBankTransaction({ params: { id: target.id }, body: { account_code: code } }),
          ),
        () => `Categorised “${target.description}” to ${accountName(accounts.data, code)}.`,
      );
      return;
    }
    // A document owing less than the line paid only part of it: the rest is placed in the split.
    if (s.kind !== 'journal_line' && s.amount < Math.abs(target.amount)) {
      split(s);
      return;
    }
    const match = s.invoice_id
      ? { invoice_id: s.invoice_id }
      : s.bill_id
        ? { bill_id: s.bill_id }
        : { journal_line_id: s.journal_line_id ?? undefined };
    act(
      target,
      () =>
        unwrap(
          calls.matchBankTransaction({
            params: { id: target.id },
            body: { matches: [{ ...match, amount: Math.abs(target.amount) }] },
          }),
        ),
      () => `Matched “${target.description}” (${minorMoney(target.amount, currency)}) to ${s.label}.`,
    );
  };
  const exclude = (target: Line) =>
    act(
      target,
      () => unwrap(calls.excludeBankTransaction({ params: { id: target.id } })),
      () => `Excluded “${target.description}”: nothing was posted for it.`,
    );

  const writes = can('matchBankTransaction');
  const open = line?.status === 'unmatched';
  const actions: LineActions =
    line && open
      ? {
          accept: writes ? (s) => accept(line, s) : undefined,
          split: writes ? () => split() : undefined,
          categorise: can('categoriseBankTransaction') ? () => setDialog('categorise') : undefined,
          exclude: can('excludeBankTransaction') ? () => exclude(line) : undefined,
          rule: can('createBankRule') ? () => setDialog('rule') : undefined,
        }
      : line && can('unmatchBankTransaction')
        ? {
            unmatch: async () => {
              await unwrap(calls.unmatchBankTransaction({ params: { id: line.id } }));
              outcome.done(`“${line.description}” is back among the lines to reconcile.`);
              setGone((g) => new Set(g).add(line.id));
              list.reload();
            },
          }
        : {};

  /** Moves the choice; past either end of the page, on to the next or previous page. */
  const move = (delta: number) => {
    const next = index + delta;
    const page = list.page ?? 1;
    const pages = list.data ? pagesOf(list.data.total, PAGE_SIZE) : 1;
    if (next < 0 && page > 1) {
      setChosen({ id: null, index: PAGE_SIZE - 1 });
      navigate(withQuery({ page: page - 1 === 1 ? null : page - 1 }));
    } else if (next >= rows.length && page < pages) {
      setChosen({ id: null, index: 0 });
      navigate(withQuery({ page: page + 1 }));
    } else if (next >= 0 && next < rows.length) choose(next);
    listRef.current?.focus();
  };

  // The screen's keys, wherever the focus is but in a field or a dialog; the arrows and Enter only
  // from the list (or nowhere), so that they still scroll the page and press a focused button.
  const onKey = (e: KeyboardEvent) => {
    if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
    const target = e.target instanceof Element ? e.target : null;
    const inList = target?.closest('[role="listbox"]') != null;
    const free = inList || !target || target === document.body || target.id === 'main';
    if ((e.key === 'ArrowDown' && free) || e.key === 'j') move(1);
    else if ((e.key === 'ArrowUp' && free) || e.key === 'k') move(-1);
    else if (e.key === 'Home' && inList) choose(0);
    else if (e.key === 'End' && inList) choose(rows.length - 1);
    else if (e.key === 'Enter' && free && line && actions.accept && suggestions.data?.[0])
      actions.accept(suggestions.data[0]);
    else if (e.key === 'e' && actions.exclude) actions.exclude();
    else if (e.key === 'c' && actions.categorise) actions.categorise();
    else return;
    e.preventDefault();
  };
  const keys = useRef(onKey);
  keys.current = onKey;
  useEffect(() => {
    const listener = (e: KeyboardEvent) => keys.current(e);
    document.addEventListener('keydown', listener);
    return () => document.removeEventListener('keydown', listener);
  }, []);

  const topRule = suggestions.data?.[0]?.kind === 'rule' ? suggestions.data[0].account_code : null;
  const done = (words: string) => () => {
    setDialog(null);
    if (line) setGone((g) => new Set(g).add(line.id));
    outcome.done(words);
    list.reload();
    listRef.current?.focus();
  };

  return (
    <>
      <div class="reconcile-bar">
        <StatusTabs
          label="Statement lines by status"
          values={OTHER_TABS}
          current={status === 'unmatched' ? null : status}
          first={BANK_LINE_STATUS_LABELS.unmatched}
          names={BANK_LINE_STATUS_LABELS}
        />
        {status === 'unmatched' && can('acceptBankSuggestions') ? (
          <Button
            busy={busy === 'all'}
            onClick={() =>
              act(
                null,
                () => unwrap(calls.acceptBankSuggestions({ body: { bank_account_id: account.id } })),
                ({ accepted }) =>
                  accepted === 0
                    ? 'No line had a rule’s suggestion to accept.'
                    : `Accepted ${accepted} rule ${accepted === 1 ? 'suggestion' : 'suggestions'}: those lines are categorised.`,
              )
            }
          >
            Accept all rule suggestions
          </Button>
        ) : null}
      </div>
      <OutcomeMessage outcome={outcome} />
      {status === 'unmatched' && writes ? (
        <p id="reconcile-keys" class="keys-hint">
          Keys: <kbd>↑</kbd> <kbd>↓</kbd> or <kbd>j</kbd> <kbd>k</kbd> move between lines · <kbd>Enter</kbd>{' '}
          accepts the top suggestion · <kbd>e</kbd> excludes · <kbd>c</kbd> categorises. Every action is also
          a button.
        </p>
      ) : null}
      <PagedList
        error={list.error}
        reload={list.reload}
        data={shown}
        page={list.page}
        empty={
          status === 'unmatched'
            ? {
                title: 'Nothing to reconcile',
                children: (
                  <p>
                    Every imported line is matched or excluded.{' '}
                    {can('importStatement') ? (
                      <Link to={`/finance/bank-accounts/${account.id}/import`}>
                        Import the next statement
                      </Link>
                    ) : null}
                  </p>
                ),
              }
            : status === 'matched'
              ? { title: 'No matched lines yet', children: <p>Lines you match or categorise show here.</p> }
              : {
                  title: 'No excluded lines',
                  children: <p>Lines you set aside, such as one the bank printed twice, show here.</p>,
                }
        }
      >
        {(page) => (
          <div class="reconcile">
            <div class="reconcile-lines">
              <StatementLines
                lines={page}
                chosen={line}
                currency={currency}
                onChoose={choose}
                describedBy={status === 'unmatched' && writes ? 'reconcile-keys' : undefined}
                listRef={listRef}
              />
              <Pager
                page={list.page ?? 1}
                total={list.data?.total}
                totalPages={list.data ? pagesOf(list.data.total, PAGE_SIZE) : 1}
              />
            </div>
            {line ? (
              <LinePanel
                line={line}
                currency={currency}
                accounts={accounts.data}
                suggestions={suggestions}
                actions={actions}
                busy={busy !== null}
              />
            ) : null}
          </div>
        )}
      </PagedList>
      {line && dialog === 'categorise' ? (
        <CategoriseDialog
          line={line}
          currency={currency}
          open
          onClose={() => setDialog(null)}
          accounts={accounts.data}
          suggested={topRule ?? undefined}
          onDone={(answer) => {
            const code = answer.bank_transaction.matches[0]?.account_code;
            done(
              `Categorised “${line.description}”${code ? ` to ${accountName(accounts.data, code)}` : ''}.`,
            )();
          }}
        />
      ) : null}
      {line && dialog === 'split' ? (
        <SplitDialog
          line={line}
          currency={currency}
          open
          onClose={() => setDialog(null)}
          suggestions={suggestions.data ?? []}
          first={splitFirst}
          onDone={(answer) =>
            done(
              `Matched “${line.description}” to ${answer.bank_transaction.matches.length} ${answer.bank_transaction.matches.length === 1 ? 'document' : 'documents'}.`,
            )()
          }
        />
      ) : null}
      {line && dialog === 'rule' ? (
        <Dialog title="Make a rule from this line" open onClose={() => setDialog(null)}>
          <RuleForm
            initial={{
              description_contains: ruleWords(line.description),
              direction: line.amount < 0 ? 'out' : 'in',
              min_amount: '',
              max_amount: '',
              account_code: '',
            }}
            currency={currency}
            accounts={accounts.data}
            onCancel={() => setDialog(null)}
            onSaved={(saved) => {
              setDialog(null);
              const n = saved.suggested ?? 0;
              outcome.done(
                `Rule “${saved.bank_rule.description_contains}” added: it suggests ${accountName(accounts.data, saved.bank_rule.account_code)} for ${n} ${n === 1 ? 'line' : 'lines'} to reconcile.`,
              );
              list.reload();
              suggestionsLoad.reload();
            }}
          />
        </Dialog>
      ) : null}
    </>
  );
}
