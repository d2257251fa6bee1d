import { createExpressEndpoints } from '@ts-rest/express';
import { withCsvExports } from '../platform/exports.js';
import { contract } from '../../contract/index.js';
import type { DomainModule } from '../platform/module.js';
import { seedGeneralDemo } from './demo.js';
import { mountDocumentPages } from './documents/pages.js';
import { QUEUES } from '../platform/jobs.js';
import { confirmTestPaymentLater, mountTestCheckout } from './online-payments/pages.js';
import { refundToCard } from './online-payments/refund-job.js';
import { closeRenderers } from './documents/render.js';
import { hasDueInvoiceReminders, sendInvoiceReminders } from './invoices/reminders.js';
import { hasDueRecurringInvoices, issueRecurringInvoices } from './recurring-invoices/service.js';
import { generalRoutes } from './routes.js';
import { customerImport } from './customers/service.js';
import { productImport } from './products/service.js';

/** The general group: customers, products, invoices, recurring invoices, quotes, credit notes. It announces the invoice and credit-note hooks. */
export const generalModule: DomainModule = {
  name: 'general',
  tables: [
    'customers',
    'products',
    'invoices',
    'invoice_items',
    'payments',
    'quotes',
    'quote_items',
    'invoice_reminders',
    'credit_notes',
    'credit_note_items',
    'customer_credit_balances',
    'payment_checkouts',
    'payment_payouts',
    'recurring_invoices',
    'recurring_invoice_items',
    'sequences',
  ],
  views: ['customer_directory'],
  imports: [customerImport, productImport],
  mount: (app, deps, options) =>
    createExpressEndpoints(
      contract.general,
      withCsvExports(deps, contract.general, generalRoutes(deps)),
      app,
      options,
    ),
  pages: (app, deps) => {
    mountDocumentPages(app, deps);
    mountTestCheckout(app, deps);
  },
  jobs: [
    {
      queue: QUEUES.confirmTestPayment,
      handle: (deps, job) => confirmTestPaymentLater(deps, job),
    },
    { queue: QUEUES.refundToCard, handle: (deps, job) => refundToCard(deps, job) },
  ],
  stop: (deps) => closeRenderers(deps.state),
  periodic: [
    { name: 'recurring invoices', everyMs: () => 60_000, run: issueRecurringInvoices },
    { name: 'invoice reminders', everyMs: () => 60_000, run: sendInvoiceReminders },
  ],
  due: [
    {
      counts: 'invoices_recurred',
      run: issueRecurringInvoices,
      pending: hasDueRecurringInvoices,
      grows: ['invoices', 'invoice_items', 'finance_journal_entries', 'finance_journal_lines'],
    },
    { counts: 'invoice_reminders_sent', run: sendInvoiceReminders, pending: hasDueInvoiceReminders },
  ],
  seedDemo: seedGeneralDemo,
};

export { customerForEmail, unsubscribeCustomer } from './customers/service.js';
export { salesItems, type SalesItem } from './invoices/sales.js';
export { receivablesAsOf } from './invoices/ageing.js';
export { recordBankPayment, reverseBankPayment } from './invoices/service.js';
export { invoicesByAmount, invoicesByNumber } from './invoices/queries.js';
/** The business's own reports (balance sheet, profit and loss) as PDFs, for the finance group. */
export { reportPdf } from './documents/delivery.js';
export type { ReportRow, ReportView } from './documents/pdf.js';

/** The document renderer, for bench/documents.ts. */
export { renderPdf, type DocumentIssuer, type DocumentRecipient, type PdfSource } from './documents/pdf.js';
