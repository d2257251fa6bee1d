import type { Response } from 'express';
import { initServer } from '@ts-rest/express';
import { contract } from '../../contract/index.js';
import { created, ok } from '../platform/answers.js';
import { ctxFor, type Deps } from '../platform/deps.js';
import * as creditNotes from './credit-notes/service.js';
import * as customers from './customers/service.js';
import * as invoices from './invoices/service.js';
import * as onlinePayments from './online-payments/service.js';
import { receiveProviderWebhook } from './online-payments/webhooks.js';
import * as products from './products/service.js';
import * as quotes from './quotes/service.js';
import * as statements from './statements/service.js';
import * as recurring from './recurring-invoices/service.js';

const s = initServer();

/** A document's PDF, named for download. */
function pdf(res: Response, file: { filename: string; content: Buffer }) {
  res.setHeader('Content-Disposition', `inline; filename="${file.filename}"`);
  return { status: 200 as const, body: file.content as unknown as Blob };
}

export const generalRoutes = (deps: Deps) => {
  const ctx = ctxFor(deps);
  return s.router(contract.general, {
    customers: {
      listCustomers: async ({ query, req }) => ok(await customers.listCustomers(ctx(req), query)),
      createCustomer: async ({ body, req }) =>
        created({ data: await customers.createCustomer(ctx(req), body) }),
      getCustomer: async ({ params, req }) => ok({ data: await customers.getCustomer(ctx(req), params.id) }),
      updateCustomer: async ({ params, body, req }) =>
        ok({ data: await customers.updateCustomer(ctx(req), params.id, body) }),
      deleteCustomer: async ({ params, req }) =>
        ok({ data: await customers.deleteCustomer(ctx(req), params.id) }),
    },
    products: {
      listProducts: async ({ query, req }) => ok(await products.listProducts(ctx(req), query)),
      createProduct: async ({ body, req }) => created({ data: await products.createProduct(ctx(req), body) }),
      getProduct: async ({ params, req }) => ok({ data: await products.getProduct(ctx(req), params.id) }),
      updateProduct: async ({ params, body, req }) =>
        ok({ data: await products.updateProduct(ctx(req), params.id, body) }),
      deleteProduct: async ({ params, req }) =>
        ok({ data: await products.deleteProduct(ctx(req), params.id) }),
    },
    invoices: {
      listInvoices: async ({ query, req }) => ok(await invoices.listInvoices(ctx(req), query)),
      createInvoice: async ({ body, req }) => created({ data: await invoices.createInvoice(ctx(req), body) }),
      getInvoice: async ({ params, req }) => ok({ data: await invoices.getInvoice(ctx(req), params.id) }),
      updateInvoice: async ({ params, body, req }) =>
        ok({ data: await invoices.updateInvoice(ctx(req), params.id, body) }),
      deleteInvoice: async ({ params, req }) =>
        ok({ data: await invoices.deleteInvoice(ctx(req), params.id) }),
      issueInvoice: async ({ params, req }) => ok({ data: await invoices.issueInvoice(ctx(req), params.id) }),
      createPayment: async ({ params, body, req }) =>
        created({ data: await invoices.recordPayment(ctx(req), params.id, body) }),
      voidInvoice: async ({ params, req }) => ok({ data: await invoices.voidInvoice(ctx(req), params.id) }),
      getInvoicePdf: async ({ params, req, res }) => pdf(res, await invoices.invoicePdf(ctx(req), params.id)),
      sendInvoice: async ({ params, body, req }) =>
        ok({ data: await invoices.sendInvoice(ctx(req), params.id, body) }),
      createPaymentLink: async ({ params, req }) =>
        ok({ data: await onlinePayments.paymentLink(ctx(req), params.id) }),
    },
    quotes: {
      listQuotes: async ({ query, req }) => ok(await quotes.listQuotes(ctx(req), query)),
      createQuote: async ({ body, req }) => created({ data: await quotes.createQuote(ctx(req), body) }),
      getQuote: async ({ params, req }) => ok({ data: await quotes.getQuote(ctx(req), params.id) }),
      updateQuote: async ({ params, body, req }) =>
        ok({ data: await quotes.updateQuote(ctx(req), params.id, body) }),
      deleteQuote: async ({ params, req }) => ok({ data: await quotes.deleteQuote(ctx(req), params.id) }),
      sendQuote: async ({ params, body, req }) =>
        ok({ data: await quotes.sendQuote(ctx(req), params.id, body ?? {}) }),
      getQuotePdf: async ({ params, req, res }) => pdf(res, await quotes.quotePdf(ctx(req), params.id)),
      acceptQuote: async ({ params, req }) => ok({ data: await quotes.acceptQuote(ctx(req), params.id) }),
      declineQuote: async ({ params, req }) => ok({ data: await quotes.declineQuote(ctx(req), params.id) }),
      convertQuote: async ({ params, req }) =>
        created({ data: await quotes.convertQuote(ctx(req), params.id) }),
    },
    creditNotes: {
      listCreditNotes: async ({ query, req }) => ok(await creditNotes.listCreditNotes(ctx(req), query)),
      createCreditNote: async ({ body, req }) =>
        created({ data: await creditNotes.createCreditNote(ctx(req), body) }),
      getCreditNote: async ({ params, req }) =>
        ok({ data: await creditNotes.getCreditNote(ctx(req), params.id) }),
      getCreditNotePdf: async ({ params, req, res }) =>
        pdf(res, await creditNotes.creditNotePdf(ctx(req), params.id)),
      sendCreditNote: async ({ params, body, req }) =>
        ok({ data: await creditNotes.sendCreditNote(ctx(req), params.id, body) }),
      voidCreditNote: async ({ params, req }) =>
        ok({ data: await creditNotes.voidCreditNote(ctx(req), params.id) }),
    },
    statements: {
      getCustomerStatement: async ({ params, query, req }) =>
        ok({ data: await statements.customerStatement(ctx(req), params.id, query) }),
      getCustomerStatementPdf: async ({ params, query, req, res }) =>
        pdf(res, await statements.customerStatementPdf(ctx(req), params.id, query)),
    },
    recurringInvoices: {
      listRecurringInvoices: async ({ query, req }) =>
        ok(await recurring.listRecurringInvoices(ctx(req), query)),
      createRecurringInvoice: async ({ body, req }) =>
        created({ data: await recurring.createRecurringInvoice(ctx(req), body) }),
      getRecurringInvoice: async ({ params, req }) =>
        ok({ data: await recurring.getRecurringInvoice(ctx(req), params.id) }),
      updateRecurringInvoice: async ({ params, body, req }) =>
        ok({ data: await recurring.updateRecurringInvoice(ctx(req), params.id, body) }),
      pauseRecurringInvoice: async ({ params, req }) =>
        ok({ data: await recurring.pauseRecurringInvoice(ctx(req), params.id) }),
      resumeRecurringInvoice: async ({ params, req }) =>
        ok({ data: await recurring.resumeRecurringInvoice(ctx(req), params.id) }),
      endRecurringInvoice: async ({ params, req }) =>
        ok({ data: await recurring.endRecurringInvoice(ctx(req), params.id) }),
    },
    payments: {
      receiveProviderWebhook: async ({ params, req }) =>
        ok({
          data: {
            received: true as const,
            outcome: await receiveProviderWebhook(deps, req, params.provider, params.business_id),
          },
        }),
    },
  });
};
