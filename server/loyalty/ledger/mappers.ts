import type { Transaction } from '../../../contract/loyalty/index.js';
import type { LoyaltyTransactionRow } from '../../platform/db/types.js';

export const toTransaction = (row: LoyaltyTransactionRow): Transaction => ({
  publicId: row.id,
  memberId: row.member_id,
  type: row.type,
  points: Number(row.points),
  balanceAfter: Number(row.balance_after),
  description: row.description,
  referenceType: row.reference_type,
  referenceId: row.reference_id,
  multiplierApplied: Number(row.multiplier_applied),
  dateCreated: row.created_at.toISOString(),
});
