import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';

/*
 * Looking up open documents by what they owe against an amount (a bank line's suggestions,
 * docs/decisions.md D273): the same amount, or the nearest above or below, read from an index on
 * the amount owed.
 */

/** An open document as a suggestion shows it. */
export interface Candidate {
  id: string;
  label: string;
  due: number;
  date: string | null;
}

/** Where the amount a document owes stands to the line's: equal, the nearest above, the nearest below. */
export type Closeness = 'equal' | 'above' | 'below';

export const amountCompared = (
  due: RawBuilder<number>,
  closeness: Closeness,
  amount: number,
): Expression<SqlBool> =>
  closeness === 'equal'
    ? sql<SqlBool>`${due} = ${amount}`
    : closeness === 'above'
      ? sql<SqlBool>`${due} > ${amount}`
      : sql<SqlBool>`${due} < ${amount}`;

/** Nearest first: ascending above (and for equal), descending below. */
export const amountOrder = (closeness: Closeness) => (closeness === 'below' ? sql`desc` : sql`asc`);
