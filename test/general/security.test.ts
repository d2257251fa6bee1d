import { expect } from 'vitest';
import { contract, unwrap } from '../../client/index.js';
import { registerTenant, uniqueEmail, type TestTenant } from '../support/business.js';
import {
  createCreditNote,
  createCustomer,
  createRecurringInvoice,
  createInvoice,
  createProduct,
  createQuote,
  invoiceBody,
  issuedInvoice,
  uniqueSku,
} from '../support/general.js';
import { describeRouteSecurity, type Answer } from '../support/security.js';
import { useTestServer } from '../support/setup.js';

// PAYMENTS_TEST_PROVIDER: a live business may connect the test provider, and pay online through it.
const server = useTestServer({ worker: false, env: { PAYMENTS_TEST_PROVIDER: 'true' } });

const { customers, products, invoices, quotes, creditNotes, statements, recurringInvoices } =
  contract.general;

/** A list that another business filtered by this business's ids: answered, and empty. */
const emptyPage = (answer: Answer) => {
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({ data: [], pagination: { total: 0 } });
};

/** A monthly recurring invoice of the tenant's customer, starting far enough ahead to be "today or later". */
const recurringOf = (t: TestTenant) =>
  createRecurringInvoice(t.client, { customer_id: t.customerId, start_date: '2099-01-31' });

/** A credit note of 10.00 against a new issued invoice of the tenant's customer. */
const creditNoteOf = async (t: TestTenant) =>
  createCreditNote(t.client, {
    invoice_id: (await issuedInvoice(t.client, { customer_id: t.customerId })).id,
  });

describeRouteSecurity({
  server,
  tenant: registerTenant,
  router: contract.general,
  routes: (route) => [
    route(
      customers.listCustomers,
      async (t) => {
        const email = uniqueEmail('customer');
        await createCustomer(t.client, { email });
        return { query: { email } };
      },
      { otherBusiness: emptyPage },
    ),
    route(customers.createCustomer, async () => ({ body: { name: 'Grace Hopper' } })),
    route(customers.getCustomer, async (t) => ({ params: { id: (await createCustomer(t.client)).id } })),
    route(customers.updateCustomer, async (t) => ({
      params: { id: (await createCustomer(t.client)).id },
      body: { name: 'Grace Hopper' },
    })),
    route(customers.deleteCustomer, async (t) => ({ params: { id: (await createCustomer(t.client)).id } })),

    route(products.listProducts, async () => ({ query: {} })),
    route(products.createProduct, async () => ({ body: { name: 'Tea', sku: uniqueSku('TEA'), price: 3 } })),
    route(products.getProduct, async (t) => ({ params: { id: (await createProduct(t.client)).id } })),
    route(products.updateProduct, async (t) => ({
      params: { id: (await createProduct(t.client)).id },
      body: { price: 30 },
    })),
    route(products.deleteProduct, async (t) => ({ params: { id: (await createProduct(t.client)).id } })),

    route(invoices.listInvoices, async (t) => ({ query: { customer_id: t.customerId } }), {
      otherBusiness: emptyPage,
    }),
    // Another business's customer is no customer of the caller's: 422 naming customer_id.
    route(invoices.createInvoice, async (t) => ({ body: invoiceBody({ customer_id: t.customerId }) }), {
      otherBusiness: { status: 422, code: 'VALIDATION_ERROR', field: 'customer_id' },
    }),
    route(invoices.getInvoice, async (t) => ({
      params: { id: (await createInvoice(t.client, { customer_id: t.customerId })).id },
    })),
    route(invoices.updateInvoice, async (t) => ({
      params: { id: (await createInvoice(t.client, { customer_id: t.customerId })).id },
      body: { notes: 'Updated terms' },
    })),
    route(invoices.deleteInvoice, async (t) => ({
      params: { id: (await createInvoice(t.client, { customer_id: t.customerId })).id },
    })),
    route(invoices.issueInvoice, async (t) => ({
      params: { id: (await createInvoice(t.client, { customer_id: t.customerId })).id },
    })),
    route(invoices.createPayment, async (t) => ({
      params: { id: (await issuedInvoice(t.client, { customer_id: t.customerId })).id },
      body: { amount: 10, payment_method: 'cash' as const },
    })),
    route(invoices.voidInvoice, async (t) => ({
      params: { id: (await issuedInvoice(t.client, { customer_id: t.customerId })).id },
    })),
    route(invoices.getInvoicePdf, async (t) => ({
      params: { id: (await createInvoice(t.client, { customer_id: t.customerId })).id },
    })),
    route(invoices.sendInvoice, async (t) => ({
      params: { id: (await createInvoice(t.client, { customer_id: t.customerId })).id },
      body: { to: 'accounts@example.com' },
    })),
    route(invoices.createPaymentLink, async (t) => {
      await unwrap(t.client.auth.updatePaymentSettings({ body: { provider: 'test' } }));
      return { params: { id: (await issuedInvoice(t.client, { customer_id: t.customerId })).id } };
    }),

    route(quotes.listQuotes, async (t) => ({ query: { customer_id: t.customerId } }), {
      otherBusiness: emptyPage,
    }),
    route(
      quotes.createQuote,
      async (t) => ({
        body: {
          customer_id: t.customerId,
          items: [{ description: 'Consulting', quantity: 1, unit_price: 100 }],
          valid_until: '2099-12-31',
        },
      }),
      { otherBusiness: { status: 422, code: 'VALIDATION_ERROR', field: 'customer_id' } },
    ),
    route(quotes.getQuote, async (t) => ({ params: { id: (await createQuote(t.client, t.customerId)).id } })),
    route(quotes.getQuotePdf, async (t) => ({
      params: { id: (await createQuote(t.client, t.customerId)).id },
    })),
    route(quotes.updateQuote, async (t) => ({
      params: { id: (await createQuote(t.client, t.customerId)).id },
      body: { notes: 'Updated terms' },
    })),
    route(quotes.deleteQuote, async (t) => ({
      params: { id: (await createQuote(t.client, t.customerId)).id },
    })),
    route(quotes.sendQuote, async (t) => ({
      params: { id: (await createQuote(t.client, t.customerId)).id },
      body: {},
    })),
    route(quotes.acceptQuote, async (t) => ({
      params: { id: (await createQuote(t.client, t.customerId, 'sent')).id },
    })),
    route(quotes.declineQuote, async (t) => ({
      params: { id: (await createQuote(t.client, t.customerId, 'sent')).id },
    })),
    route(quotes.convertQuote, async (t) => ({
      params: { id: (await createQuote(t.client, t.customerId, 'accepted')).id },
    })),

    route(creditNotes.listCreditNotes, async (t) => ({ query: { customer_id: t.customerId } }), {
      otherBusiness: emptyPage,
    }),
    // Another business's invoice is no invoice of the caller's: 422 naming invoice_id.
    route(
      creditNotes.createCreditNote,
      async (t) => ({
        body: {
          invoice_id: (await issuedInvoice(t.client, { customer_id: t.customerId })).id,
          amount: 10,
          reason: 'Goodwill',
          credit_amount: 10,
          refund_amount: 0,
          customer_credit_amount: 0,
        },
      }),
      { otherBusiness: { status: 422, code: 'VALIDATION_ERROR', field: 'invoice_id' } },
    ),
    route(creditNotes.getCreditNote, async (t) => ({
      params: { id: (await creditNoteOf(t)).id },
    })),
    route(creditNotes.getCreditNotePdf, async (t) => ({
      params: { id: (await creditNoteOf(t)).id },
    })),
    route(creditNotes.sendCreditNote, async (t) => ({
      params: { id: (await creditNoteOf(t)).id },
      body: { to: 'accounts@example.com' },
    })),
    route(creditNotes.voidCreditNote, async (t) => ({
      params: { id: (await creditNoteOf(t)).id },
    })),

    route(statements.getCustomerStatement, async (t) => ({
      params: { id: (await creditNoteOf(t)).customer_id },
      query: {},
    })),
    route(statements.getCustomerStatementPdf, async (t) => ({
      params: { id: (await creditNoteOf(t)).customer_id },
      query: {},
    })),
    route(recurringInvoices.listRecurringInvoices, async (t) => ({ query: { customer_id: t.customerId } }), {
      otherBusiness: emptyPage,
    }),
    // Another business's customer is no customer of the caller's: 422 naming customer_id.
    route(
      recurringInvoices.createRecurringInvoice,
      async (t) => ({
        body: {
          customer_id: t.customerId,
          items: [{ description: 'Support', quantity: 1, unit_price: 10 }],
          interval: 'month' as const,
          start_date: '2099-01-31',
        },
      }),
      { otherBusiness: { status: 422, code: 'VALIDATION_ERROR', field: 'customer_id' } },
    ),
    route(recurringInvoices.getRecurringInvoice, async (t) => ({
      params: { id: (await recurringOf(t)).id },
    })),
    route(recurringInvoices.updateRecurringInvoice, async (t) => ({
      params: { id: (await recurringOf(t)).id },
      body: { due_days: 14 },
    })),
    route(recurringInvoices.pauseRecurringInvoice, async (t) => ({
      params: { id: (await recurringOf(t)).id },
    })),
    route(recurringInvoices.resumeRecurringInvoice, async (t) => ({
      params: { id: (await recurringOf(t)).id },
    })),
    route(recurringInvoices.endRecurringInvoice, async (t) => ({
      params: { id: (await recurringOf(t)).id },
    })),
  ],
});
