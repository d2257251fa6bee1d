import { randomBytes } from 'node:crypto';
import { unwrap, type Client, type general } from '../../client/index.js';

/** Factories of the general group: one per resource, each through the typed client. */

/** A customer: Ada Lovelace unless told. */
export async function createCustomer(
  client: Client,
  overrides: Partial<general.CreateCustomerBody> = {},
): Promise<general.Customer> {
  const body = { name: 'Ada Lovelace', ...overrides };
  return (await unwrap(client.general.customers.createCustomer({ body }))).data;
}

/** A SKU no other product of any test has. */
export const uniqueSku = (tag = 'SKU') => `${tag}-${randomBytes(4).toString('hex')}`;

/** A product: 1 kg of espresso beans at 24.50 USD with a fresh SKU unless told. */
export async function createProduct(
  client: Client,
  overrides: Partial<general.CreateProductBody> = {},
): Promise<general.Product> {
  const body = { name: 'Espresso beans 1kg', sku: uniqueSku(), price: 24.5, ...overrides };
  return (await unwrap(client.general.products.createProduct({ body }))).data;
}

/** An invoice line: one hour of consulting at 100 unless told. */
export const invoiceLine = (overrides: Partial<general.InvoiceItemInput> = {}): general.InvoiceItemInput => ({
  description: 'Consulting (hours)',
  quantity: 1,
  unit_price: 100,
  ...overrides,
});

/** The body of a draft invoice of `customer_id`: one line (`invoiceLine()`), due 2026-12-21. */
export const invoiceBody = (
  body: Partial<general.CreateInvoiceBody> & Pick<general.CreateInvoiceBody, 'customer_id'>,
): general.CreateInvoiceBody => ({ items: [invoiceLine()], due_date: '2026-12-21', ...body });

/** A draft invoice (`invoiceBody`). */
export async function createInvoice(
  client: Client,
  body: Partial<general.CreateInvoiceBody> & Pick<general.CreateInvoiceBody, 'customer_id'>,
): Promise<general.Invoice> {
  return (await unwrap(client.general.invoices.createInvoice({ body: invoiceBody(body) }))).data;
}

export async function issueInvoice(client: Client, id: string): Promise<general.Invoice> {
  return (await unwrap(client.general.invoices.issueInvoice({ params: { id } }))).data;
}

/** A draft invoice (`invoiceBody`), issued. */
export async function issuedInvoice(
  client: Client,
  body: Partial<general.CreateInvoiceBody> & Pick<general.CreateInvoiceBody, 'customer_id'>,
): Promise<general.Invoice> {
  return issueInvoice(client, (await createInvoice(client, body)).id);
}

/** A payment of `amount` (major units) by bank transfer unless told; returns the invoice. */
export async function payInvoice(
  client: Client,
  id: string,
  amount: number,
  extra: Partial<general.CreatePaymentBody> = {},
): Promise<general.Invoice> {
  const body = { amount, payment_method: 'bank_transfer' as const, ...extra };
  return (await unwrap(client.general.invoices.createPayment({ params: { id }, body }))).data;
}

export async function voidInvoice(client: Client, id: string): Promise<general.Invoice> {
  return (await unwrap(client.general.invoices.voidInvoice({ params: { id } }))).data;
}

export async function getInvoice(client: Client, id: string): Promise<general.Invoice> {
  return (await unwrap(client.general.invoices.getInvoice({ params: { id } }))).data;
}

/** A quote of `customer_id`: two hours of consulting at 150 with 20% tax, valid until 2099-12-31, moved to `status`. */
export async function createQuote(
  client: Client,
  customer_id: string,
  status: 'draft' | 'sent' | 'accepted' = 'draft',
): Promise<general.Quote> {
  const quotes = client.general.quotes;
  const body = {
    customer_id,
    items: [{ description: 'Consulting (hours)', quantity: 2, unit_price: 150, tax_rate: 20 }],
    valid_until: '2099-12-31',
  };
  const quote = (await unwrap(quotes.createQuote({ body }))).data;
  if (status === 'draft') return quote;
  await unwrap(quotes.sendQuote({ params: { id: quote.id }, body: {} }));
  if (status === 'sent') return (await unwrap(quotes.getQuote({ params: { id: quote.id } }))).data;
  return (await unwrap(quotes.acceptQuote({ params: { id: quote.id } }))).data;
}

/**
 * A credit note against `invoice_id`: for `amount` (major units) unless `items` are given, all of it
 * lowering what the invoice owes unless the split is given.
 */
export async function createCreditNote(
  client: Client,
  body: Partial<general.CreateCreditNoteBody> & Pick<general.CreateCreditNoteBody, 'invoice_id'>,
): Promise<general.CreditNote> {
  const amount = body.amount ?? 10;
  const full: general.CreateCreditNoteBody = {
    ...(body.items ? {} : { amount }),
    reason: 'Goodwill',
    credit_amount: body.items ? 0 : amount,
    refund_amount: 0,
    customer_credit_amount: 0,
    ...body,
  };
  return (await unwrap(client.general.creditNotes.createCreditNote({ body: full }))).data;
}

/**
 * A monthly recurring invoice for `customer_id` of one line of 100.00 at 20 % tax, starting on
 * `start_date` (the business's today or later), unless told otherwise.
 */
export async function createRecurringInvoice(
  client: Client,
  body: Partial<general.CreateRecurringInvoiceBody> &
    Pick<general.CreateRecurringInvoiceBody, 'customer_id' | 'start_date'>,
): Promise<general.RecurringInvoice> {
  const full: general.CreateRecurringInvoiceBody = {
    items: [invoiceLine({ description: 'Monthly support', unit_price: 100, tax_rate: 20 })],
    interval: 'month',
    ...body,
  };
  return (await unwrap(client.general.recurringInvoices.createRecurringInvoice({ body: full }))).data;
}
