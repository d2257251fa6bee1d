import type { Account } from '../../../contract/finance/index.js';

export const toAccount = (row: {
  code: string;
  name: string;
  type: Account['type'];
  cash_flow_group: Account['cash_flow_group'];
  system: boolean;
}): Account => ({
  code: row.code,
  name: row.name,
  type: row.type,
  cash_flow_group: row.cash_flow_group,
  system: row.system,
});
