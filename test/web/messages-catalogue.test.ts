import { isAppRoute, type AppRouter } from '@ts-rest/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { general, hr, marketing } from '../../client/index.js';
import { contract } from '../../contract/index.js';
import { OPERATION_PERMISSIONS, ROLES } from '../../contract/permissions.js';
import {
  AUDIT_FALLBACK,
  AUDIT_SENTENCES,
  auditSentence,
  operationLabel,
  PLAIN_VERBS,
  REFUSED_PREFIX,
  sentenceText,
} from '../../web/lib/audit-messages.js';
import {
  fieldMessage,
  invoiceStatus,
  NOT_WITHIN_HORIZON,
  plainDetail,
  refusalMessage,
  roleLabel,
  withinHorizon,
} from '../../web/lib/messages.js';

/** The dashboard's message catalogue, without a browser: every change has words, none is raw. */

/** What a person must never read: the validator's own wording, or an integrator's. */
const RAW =
  /String must contain|Expected (a |number|string|integer)|^Required$|Invalid enum value|Invalid input|character\(s\)|major units|minor units|\/v1\/|received (nan|string|undefined)/;
/** A camelCase operation id (`createPayment`). */
const OPERATION_ID = /\b[a-z]+[A-Z][a-zA-Z]*\b/;

/** Every operation of the contract with its method. */
function operations(): { name: string; method: string }[] {
  const found: { name: string; method: string }[] = [];
  const walk = (router: AppRouter) => {
    for (const [name, entry] of Object.entries(router)) {
      if (isAppRoute(entry)) found.push({ name, method: entry.method });
      else walk(entry);
    }
  };
  walk(contract);
  return found;
}

const money = (minor: number, currency: string) =>
  new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(minor / 100);

describe('the audit sentences', () => {
  const changes = operations().filter((op) => op.method !== 'GET');

  it('cover every operation of the permission table that changes something', () => {
    const changing = new Set(changes.map((op) => op.name));
    const missing = Object.keys(OPERATION_PERMISSIONS).filter(
      (op) => changing.has(op) && AUDIT_SENTENCES[op] === undefined,
    );
    expect(missing).toEqual([]);
    expect(changes.length).toBeGreaterThan(90);
  });

  it('never show an operation id, with or without a resource and a summary', () => {
    for (const { name } of [...changes, { name: 'someFutureOperation', method: 'POST' }]) {
      for (const entry of [
        { operation: name, resource_id: null, summary: null },
        { operation: name, resource_id: 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y5', summary: null },
        { operation: name, resource_id: '42', summary: null },
        {
          operation: name,
          resource_id: 'inv_01JD7X2R5VQ8N3K4M6P9T1W2Y5',
          summary: { label: 'INV-000004', amount: 20000, currency: 'GBP' },
        },
      ]) {
        const text = sentenceText(auditSentence(entry, money));
        expect(text, name).not.toMatch(OPERATION_ID);
        expect(text, name).not.toMatch(/\{|\}|_01J/);
        expect(text.length, name).toBeGreaterThan(5);
      }
      expect(operationLabel(name), name).not.toMatch(OPERATION_ID);
    }
  });

  it('say what a payment was, on which invoice, with a link to it', () => {
    const parts = auditSentence(
      {
        operation: 'createPayment',
        resource_id: 'inv_01JD7X2R5VQ8N3K4M6P9T1W2Y5',
        summary: { label: 'INV-000004', amount: 20000, currency: 'GBP' },
      },
      money,
    );
    expect(sentenceText(parts)).toBe('Recorded a payment of £200.00 on INV-000004');
    expect(parts.find((p) => 'resource' in p)).toEqual({
      resource: { noun: 'invoice', label: 'INV-000004', to: '/invoices/inv_01JD7X2R5VQ8N3K4M6P9T1W2Y5' },
    });
  });

  it('fall back to "Changed <resource>" and tell invitations from invoices', () => {
    expect(AUDIT_FALLBACK).toBe('Changed {resource}');
    const unknown = auditSentence(
      {
        operation: 'mergeCustomers',
        resource_id: 'cus_1',
        summary: { label: 'Ada', amount: null, currency: null },
      },
      money,
    );
    expect(sentenceText(unknown)).toBe('Changed customer Ada');
    const invited = auditSentence(
      {
        operation: 'inviteMember',
        resource_id: 'inv_01JD7X2R5VQ8N3K4M6P9T1W2Y5',
        summary: { label: 'ada@example.com', amount: null, currency: null },
      },
      money,
    );
    expect(sentenceText(invited)).toBe('Invited ada@example.com to the team');
    expect(invited.find((p) => 'resource' in p)).toMatchObject({ resource: { to: '/settings/team' } });
  });

  it('word a refused attempt of every operation, a read too, as what it would have done', () => {
    for (const template of Object.values(AUDIT_SENTENCES)) {
      expect(PLAIN_VERBS[template.split(' ')[0]!], template).toBeDefined();
    }
    for (const { name } of [...operations(), { name: 'someFutureOperation', method: 'POST' }]) {
      for (const resource_id of [null, 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y5', '42']) {
        const text = sentenceText(
          auditSentence({ operation: name, resource_id, summary: null, outcome: 'denied' }, money),
        );
        expect(text, name).toMatch(/^Was refused: [a-z]/);
        expect(text, name).not.toMatch(OPERATION_ID);
        expect(text, name).not.toMatch(/\{|\}|_01J|, a draft/);
        expect(PLAIN_VERBS[text.slice(REFUSED_PREFIX.length).split(' ')[0]!], name).toBeUndefined();
      }
    }
    const denied = (operation: string, resource_id: string | null = null) =>
      auditSentence({ operation, resource_id, summary: null, outcome: 'denied' }, money);
    expect(sentenceText(denied('createCustomer'))).toBe('Was refused: add a customer');
    expect(sentenceText(denied('deleteInvoice', 'inv_01JD7X2R5VQ8N3K4M6P9T1W2Y5'))).toBe(
      'Was refused: delete an invoice',
    );
    expect(sentenceText(denied('listAuditLog'))).toBe('Was refused: see the audit log');
    const read = denied('getCustomer', 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y5');
    expect(sentenceText(read)).toBe('Was refused: see a customer');
    expect(read.find((p) => 'resource' in p)).toMatchObject({
      resource: { to: '/customers/cus_01JD7X2R5VQ8N3K4M6P9T1W2Y5' },
    });
    // A success reads as before.
    expect(
      sentenceText(
        auditSentence(
          { operation: 'createCustomer', resource_id: null, summary: null, outcome: 'success' },
          money,
        ),
      ),
    ).toBe('Added a customer');
  });
});

describe('the field messages', () => {
  const issuesOf = (schema: z.ZodTypeAny, value: unknown) => {
    const parsed = schema.safeParse(value);
    expect(parsed.success).toBe(false);
    return parsed.success ? [] : parsed.error.issues;
  };

  it('say every refusal of the contract schemas in plain words, amounts in the form currency', () => {
    const cases: [z.ZodTypeAny, unknown][] = [
      [general.CreateCustomerBodySchema, {}],
      [general.CreateCustomerBodySchema, { name: '', email: 'not an email' }],
      [general.CreateCustomerBodySchema, { name: 'x'.repeat(5000) }],
      [general.CreateProductBodySchema, { name: 'Tea', sku: 'T', price: Number('abc'), currency: 'GBP' }],
      [general.CreateProductBodySchema, { name: 'Tea', sku: 'T', price: -1, currency: 'ZZZ' }],
      [general.CreatePaymentBodySchema, { amount: Number('abc'), payment_method: 'barter' }],
      [general.CreatePaymentBodySchema, { amount: 0, payment_method: 'cash', payment_date: '2026-02-31' }],
      [hr.CreateEmployeeBodySchema, { first_name: '', hire_date: 'soon' }],
      [marketing.CreateCampaignBodySchema, { name: '', from_email_override: 'nope' }],
    ];
    for (const [schema, value] of cases) {
      for (const issue of issuesOf(schema, value)) {
        const said = fieldMessage(issue, { currency: 'GBP' });
        expect(said, `${issue.path.join('.')}: ${issue.message}`).not.toMatch(RAW);
        expect(said).toMatch(/^[A-Z].*[.]$/);
      }
    }
    const [amount] = issuesOf(general.CreatePaymentBodySchema, {
      amount: Number('abc'),
      payment_method: 'cash',
    });
    expect(fieldMessage(amount!, { currency: 'GBP' })).toBe('Enter an amount in GBP, like 12.50.');
    expect(fieldMessage(amount!, { currency: 'JPY' })).toBe('Enter an amount in JPY, like 1250.');
  });

  it("read the server's validation details back to their rules", () => {
    const server = [
      'Required',
      'String must contain at least 1 character(s)',
      'String must contain at most 200 character(s)',
      'Invalid email',
      "Invalid enum value. Expected 'cash' | 'card', received 'barter'",
      'Expected number, received string',
      'Expected a number in major units (a decimal: 12.50 is 12.50 USD, 1250 is 1,250 JPY)',
      'Must be more than 0 in major units (a decimal: 12.50 is 12.50 USD, 1250 is 1,250 JPY)',
      'Major units of GBP take at most 2 decimals (12.50 is 12.50 USD, 1250 is 1,250 JPY)',
      'Expected a calendar date as YYYY-MM-DD',
      'Unknown ISO 4217 currency code',
      'Invalid input',
      'Not at a verified sender domain of this business (see /v1/marketing/domains)',
    ];
    for (const message of server) expect(plainDetail(message, { currency: 'GBP' }), message).not.toMatch(RAW);
    expect(
      plainDetail('Expected a number in major units (a decimal: 12.50 is 12.50 USD)', { currency: 'GBP' }),
    ).toBe('Enter an amount in GBP, like 12.50.');
    // A business rule's own words pass through.
    expect(plainDetail('The due date is before the issue date')).toBe(
      'The due date is before the issue date.',
    );
  });

  it('say refusals by their code', () => {
    expect(refusalMessage('VALIDATION_ERROR', 'Request validation failed')).not.toMatch(/Request validation/);
    expect(refusalMessage('FORBIDDEN', 'Requires the permission sales.write')).toMatch(/^Your role/);
    expect(refusalMessage('INVALID_STATE', 'A paid invoice cannot be voided')).toBe(
      'A paid invoice cannot be voided.',
    );
  });
});

describe('roles, statuses and projections', () => {
  it('labels every role as people write it', () => {
    expect(ROLES.map(roleLabel)).toEqual([
      'Owner',
      'Admin',
      'Accountant',
      'HR',
      'Marketing',
      'Loyalty',
      'Viewer',
    ]);
  });

  it('calls an invoice with some payments partially paid', () => {
    expect(invoiceStatus({ status: 'unpaid', amount_paid: 0 })).toEqual({ key: 'unpaid', label: 'Unpaid' });
    expect(invoiceStatus({ status: 'unpaid', amount_paid: 20 })).toEqual({
      key: 'partially_paid',
      label: 'Partially paid',
    });
    expect(invoiceStatus({ status: 'paid', amount_paid: 20 }).label).toBe('Paid');
  });

  it('shows a projected date only within the horizon', () => {
    expect(withinHorizon('2027-06-30', '2026-11-28')).toBe('2027-06-30');
    expect(withinHorizon('2101-01-31', '2026-11-28')).toBeNull();
    expect(NOT_WITHIN_HORIZON).toBe('Not within the next 2 years');
  });
});
