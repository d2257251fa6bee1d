import type { Account } from '../../../contract/finance/index.js';

export const toAccount = (row: {
  code: string;
  name: string;
  type: Account['type'];
  system: boolean;
}): Account => ({
  code: row.code,
  name: row.name,
  type: row.type,
  system: row.system,
});
