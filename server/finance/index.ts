import { statementBody } from './bank-accounts/statements.js';
import { createExpressEndpoints } from '@ts-rest/express';
import { withCsvExports } from '../platform/exports.js';
import { contract } from '../../contract/index.js';
import type { DomainModule } from '../platform/module.js';
import { seedFinanceDemo } from './demo.js';
import { checkAllVatThresholds, checkBusinessVatThreshold, vatAlertsPending } from './vat/service.js';
import { invoiceSubscriptions } from './ledger/postings.js';
import { hasDueRecurringBills, recordRecurringBills } from './recurring-bills/service.js';
import { revalueMonthEnd } from './revaluations/service.js';
import { financeRoutes } from './routes.js';
import { journalBatches } from './journal/service.js';
import { restoreDefaultAccounts } from './accounts/service.js';
import { vendorImport } from './vendors/service.js';
import { exchangeRateImport } from './exchange-rates/service.js';
import { FEED_INTERVAL_MS, refreshReferenceRates } from './exchange-rates/feed-job.js';

const HOUR = 60 * 60 * 1000;

/**
 * Finance: vendors, bills and their payments, recurring bills, the ledger every document posts to, the sales reports
 * and the VAT threshold (checked as invoices are issued and hourly, so a day never passes unchecked).
 */
export const financeModule: DomainModule = {
  name: 'finance',
  tables: [
    'finance_accounts',
    'finance_journal_entries',
    'finance_journal_lines',
    'finance_account_days',
    'finance_account_months',
    'finance_entry_days',
    'finance_vendors',
    'finance_bills',
    'finance_bill_items',
    'finance_bill_payments',
    'finance_recurring_bills',
    'finance_recurring_bill_items',
    'finance_sales_days',
    'finance_vat_thresholds',
    'finance_bank_accounts',
    'finance_bank_imports',
    'finance_bank_transactions',
    'finance_bank_rules',
    'finance_bank_matches',
    'finance_cash_flow_days',
    'finance_lock_dates',
    'finance_exchange_rates',
    'finance_reference_rates',
    'finance_revaluations',
  ],
  imports: [vendorImport, exchangeRateImport],
  uploads: [{ path: '/v1/finance/bank-accounts/:id/statements', read: statementBody }],
  mount: (app, deps, options) =>
    createExpressEndpoints(
      contract.finance,
      withCsvExports(
        deps,
        contract.finance,
        financeRoutes(deps),
        new Map([[contract.finance.journal.listJournal, journalBatches]]),
      ),
      app,
      options,
    ),
  subscriptions: invoiceSubscriptions,
  periodic: [
    { name: 'recurring bills', everyMs: () => 60_000, run: recordRecurringBills },
    { name: 'vat threshold alerts', everyMs: () => HOUR, run: checkAllVatThresholds },
    // The reference rates of the daily feed (docs/decisions.md D278), when FX_RATES_URL names one.
    {
      name: 'exchange rate feed',
      everyMs: () => FEED_INTERVAL_MS,
      atStart: true,
      run: (deps) => refreshReferenceRates(deps),
    },
  ],
  due: [
    {
      counts: 'bills_recurred',
      run: recordRecurringBills,
      pending: hasDueRecurringBills,
      grows: ['finance_bills', 'finance_bill_items', 'finance_journal_entries', 'finance_journal_lines'],
    },
    { counts: 'vat_alerts_sent', run: checkBusinessVatThreshold, pending: vatAlertsPending },
    { counts: 'revaluations_posted', run: revalueMonthEnd, askedBy: 'revalue_month_ends' },
  ],
  restoreDefaults: restoreDefaultAccounts,
  seedDemo: seedFinanceDemo,
};
