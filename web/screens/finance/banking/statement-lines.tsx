import type { Ref } from 'preact';
import { useEffect } from 'preact/hooks';
import type { finance } from '../../../../client/index.js';
import { date, minorMoney } from '../../../lib/format.js';

/**
 * A page of statement lines as a list to choose from (a listbox): one line chosen, shown beside it;
 * the keys that move between lines are the reconcile screen's, which owns the focus and the choice.
 */

export const lineElementId = (line: finance.BankTransaction) => `line-${line.id}`;

/** Money in shown as such, money out with its minus sign (the amount as the statement has it). */
export function LineAmount(props: { amount: number; currency: string }) {
  return (
    <span class={`line-amount ${props.amount < 0 ? 'out' : 'in'}`}>
      {minorMoney(props.amount, props.currency)}
    </span>
  );
}

export function StatementLines(props: {
  lines: finance.BankTransaction[];
  chosen: finance.BankTransaction | undefined;
  currency: string;
  onChoose: (index: number) => void;
  /** The element saying which keys work, read with the list. */
  describedBy?: string;
  listRef: Ref<HTMLUListElement>;
}) {
  const { chosen } = props;
  // The chosen line stays in view as the keys move through a long page.
  useEffect(() => {
    if (chosen) document.getElementById(lineElementId(chosen))?.scrollIntoView({ block: 'nearest' });
  }, [chosen?.id]);
  return (
    <ul
      ref={props.listRef}
      class="statement-lines"
      role="listbox"
      aria-label="Statement lines"
      aria-describedby={props.describedBy}
      aria-activedescendant={chosen ? lineElementId(chosen) : undefined}
      tabIndex={0}
    >
      {props.lines.map((line, index) => (
        <li
          key={line.id}
          id={lineElementId(line)}
          role="option"
          aria-selected={line.id === chosen?.id ? 'true' : 'false'}
          class="statement-line"
          onClick={() => props.onChoose(index)}
        >
          <span class="line-date">{date(line.date)}</span>
          <span class="line-text">
            <span class="line-description">{line.description}</span>
            {line.reference ? <span class="line-reference">Ref. {line.reference}</span> : null}
            {line.status === 'unmatched' && line.rule_id ? <span class="line-tag">Rule suggests</span> : null}
          </span>
          <LineAmount amount={line.amount} currency={props.currency} />
        </li>
      ))}
    </ul>
  );
}
