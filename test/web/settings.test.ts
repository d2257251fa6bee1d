import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createClient, unwrap, type Role, sessionOf } from '../../client/index.js';
import {
  expectAccessible,
  expectClean,
  openApp,
  screenshot,
  useBrowser,
  type AppPage,
} from '../support/browser.js';
import { registerBusiness, uniqueEmail, type TestBusiness } from '../support/business.js';
import { createCustomer } from '../support/general.js';
import { publishRecords, uniqueDomain } from '../support/marketing.js';
import { settleDeliveries, useReceivers } from '../support/receiver.js';
import { useTestServer } from '../support/setup.js';
import { waitFor } from '../support/wait.js';

// The worker runs, so webhook deliveries go out; receivers listen on 127.0.0.1.
const server = useTestServer({ env: { WEBHOOK_ALLOW_PRIVATE: 'true' } });
const browser = useBrowser();
const startReceiver = useReceivers<{ event: string; deliveryId: string; data: { id: string } }>();

const open = (business: TestBusiness | { accessToken: string }, path: string) =>
  openApp(browser(), server().baseUrl, `/app${path}`, { accessToken: business.accessToken });

const heading = (page: Page, name: string) => page.getByRole('heading', { name, level: 1 }).waitFor();

/** The browser's URL below /app, query included. */
const appUrl = (page: Page) => {
  const url = new URL(page.url());
  return url.pathname.replace(/^\/app/, '') + url.search;
};

/** Checks and closes a page: nothing logged but the refusals it provoked, no request off the origin. */
async function finish(app: AppPage, allowedStatuses: number[] = []) {
  expectClean(app, allowedStatuses);
  await app.close();
}

/** A new member of the owner's business with the role, invited and accepted through the API. */
async function newMember(owner: TestBusiness, role: Role) {
  const email = uniqueEmail(role);
  await unwrap(owner.client.team.inviteMember({ body: { email, role } }));
  const mail = await server()
    .deps.db.selectFrom('mail_messages')
    .select('body')
    .where('to_address', '=', email)
    .executeTakeFirstOrThrow();
  const token = /bms_inv_[A-Za-z0-9_-]+/.exec(mail.body)?.[0];
  if (!token) throw new Error('no invitation token in the mail');
  const anonymous = createClient({ baseUrl: server().baseUrl, maxRetries: 0 });
  const session = sessionOf(
    (
      await unwrap(
        anonymous.auth.acceptInvitation({ body: { token, password: 'another horse battery staple' } }),
      )
    ).data,
  );
  return {
    email,
    accessToken: session.accessToken,
    client: createClient({ baseUrl: server().baseUrl, accessToken: session.accessToken, maxRetries: 0 }),
  };
}

describe('API keys', () => {
  it('shows a new key once, then only its prefix; the key works until revoked in the dashboard', async () => {
    const biz = await registerBusiness(server(), 'Keys Ltd');
    const app = await open(biz, '/settings/api-keys');
    const { page } = app;
    await heading(page, 'API keys');
    await page.getByText('No API keys yet').waitFor();

    await page.getByRole('button', { name: 'Create API key' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Create an API key' });
    // The name is required: refused beside its field, nothing sent.
    await dialog.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => dialog.getByLabel('Name').getAttribute('aria-invalid')).toBe('true');
    await dialog.getByLabel('Name').fill('Accounting sync');
    await dialog.getByRole('radio', { name: /Full access/ }).check();
    await dialog.getByRole('button', { name: 'Create key' }).click();

    const secret = page.getByLabel('API key “Accounting sync”');
    await secret.waitFor();
    const key = await secret.inputValue();
    expect(key).toMatch(/^bms_sk_[A-Za-z0-9_-]{40,}$/);
    const listed = (await unwrap(biz.client.auth.listApiKeys())).data;
    expect(listed).toHaveLength(1);
    const prefix = listed[0]!.prefix;
    expect(key.startsWith(prefix)).toBe(true);
    const row = page.getByRole('row', { name: /Accounting sync/ });
    await expect.poll(() => row.textContent()).toContain(`${prefix}…`);
    expect(await row.textContent()).not.toContain(key);
    await page.getByRole('button', { name: 'Copy' }).click();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(key);
    await expectAccessible(page, 'settings-api-keys');
    await screenshot(page, 'settings-api-keys');

    // After a reload the key is gone for good: only its prefix is listed.
    await page.reload();
    await heading(page, 'API keys');
    await page.getByRole('row', { name: /Accounting sync/ }).waitFor();
    expect(await page.content()).not.toContain(key);
    expect(await page.getByRole('row', { name: /Accounting sync/ }).textContent()).toContain(`${prefix}…`);
    expect(await page.getByLabel('API key “Accounting sync”').count()).toBe(0);

    // The key works against the API...
    const withKey = createClient({ baseUrl: server().baseUrl, apiKey: key, maxRetries: 0 });
    const business = await withKey.auth.getBusiness();
    expect(business.status).toBe(200);
    await page.reload();
    await expect
      .poll(() => page.getByRole('row', { name: /Accounting sync/ }).textContent())
      .not.toContain('Never');

    // ...until revoked here, after a confirmation.
    await page.getByRole('button', { name: 'Revoke Accounting sync' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke this API key?' });
    await confirm.getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText('The key “Accounting sync” was revoked.').waitFor();
    await page.getByText('No API keys yet').waitFor();
    expect((await withKey.auth.getBusiness()).status).toBe(401);
    await finish(app);
  }, 90_000);
});

describe('webhooks', () => {
  it('registers an endpoint, delivers to it, shows the delivery log, redelivers and rotates the secret', async () => {
    const biz = await registerBusiness(server(), 'Hooks Ltd');
    const receiver = await startReceiver();
    const app = await open(biz, '/settings/webhooks');
    const { page } = app;
    await heading(page, 'Webhooks');
    await page.getByText('No endpoints yet').waitFor();
    await page.getByRole('button', { name: 'Add endpoint' }).first().click();

    // Refused beside the fields: no URL, no event.
    await page.getByLabel('Endpoint URL').fill('not a url');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByText('Choose at least one event to send.').waitFor();
    expect(await page.getByLabel('Endpoint URL').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('fieldset.events.invalid [role="alert"]').textContent()).toBe(
      'Choose at least one event to send.',
    );
    expect(await page.locator('.field.invalid [role="alert"]').textContent()).toMatch(/web address/);

    await expectAccessible(page, 'settings-webhooks-new');
    await screenshot(page, 'settings-webhooks-new');
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByRole('checkbox', { name: 'customer.created' }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = page.getByRole('textbox', { name: 'Signing secret' });
    await secret.waitFor();
    const firstSecret = await secret.inputValue();
    expect(firstSecret).toMatch(/^whsec_/);
    await page.getByRole('row', { name: new RegExp(receiver.url) }).waitFor();
    await expectAccessible(page, 'settings-webhooks');
    await screenshot(page, 'settings-webhooks');

    // A change in the business reaches the receiver.
    const customer = await createCustomer(biz.client, { name: 'Grace Hopper' });
    const [hit] = await waitFor(
      'the customer.created delivery',
      () => receiver.hits.length >= 1 && receiver.hits,
    );
    expect(hit!.body.event).toBe('customer.created');
    expect(hit!.body.data.id).toBe(customer.id);
    await settleDeliveries(server(), biz.businessId);

    // The endpoint's page lists the delivery with its attempt.
    await page.getByRole('link', { name: 'Open the endpoint' }).click();
    await heading(page, receiver.url);
    const delivery = page.locator('li.delivery').first();
    await delivery.waitFor();
    expect(await delivery.textContent()).toContain('customer.created');
    expect(await delivery.textContent()).toContain(hit!.body.deliveryId);
    await expect.poll(() => delivery.locator('table.attempts tbody tr').count()).toBe(1);
    expect(await delivery.locator('table.attempts tbody tr').textContent()).toContain('HTTP 200');

    // Redeliver: the receiver gets the same delivery again, and the log shows the second attempt.
    await delivery.getByRole('button', { name: /^Redeliver customer\.created/ }).click();
    await waitFor('the redelivery', () => receiver.hits.length >= 2);
    expect(receiver.hits[1]!.body.deliveryId).toBe(hit!.body.deliveryId);
    await expect.poll(() => delivery.locator('table.attempts tbody tr').count(), { timeout: 15_000 }).toBe(2);
    expect(await delivery.locator('table.attempts tbody tr').nth(1).textContent()).toContain('Redelivery');

    // Rotating shows a new secret once.
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await page
      .getByRole('dialog', { name: 'Rotate the signing secret?' })
      .getByRole('button', { name: 'Rotate secret' })
      .click();
    const rotated = page.getByRole('textbox', { name: 'New signing secret' });
    await rotated.waitFor();
    expect(await rotated.inputValue()).toMatch(/^whsec_/);
    expect(await rotated.inputValue()).not.toBe(firstSecret);
    await expectAccessible(page, 'settings-webhook');
    await screenshot(page, 'settings-webhook');

    // Disabled, the endpoint cannot be redelivered to; enabled again, it can.
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByText('The endpoint is disabled.').waitFor();
    await expect.poll(() => delivery.getByRole('button', { name: /^Redeliver/ }).isDisabled()).toBe(true);
    const id = Number(/\/settings\/webhooks\/(\d+)$/.exec(appUrl(page))?.[1]);
    expect((await unwrap(biz.client.webhooks.getWebhook({ params: { id } }))).webhook.is_active).toBe(false);
    await page.getByRole('button', { name: 'Enable' }).click();
    await expect.poll(() => delivery.getByRole('button', { name: /^Redeliver/ }).isDisabled()).toBe(false);
    await finish(app);
  }, 90_000);
});

describe('team', () => {
  it('invites in the dashboard, lists the invitation as pending, changes a role and removes a member', async () => {
    const owner = await registerBusiness(server(), 'Team Ltd');
    const app = await open(owner, '/settings/team');
    const { page } = app;
    await heading(page, 'Team');
    await page.getByText('No pending invitations').waitFor();
    expect(await page.getByRole('row', { name: new RegExp(owner.email) }).textContent()).toContain('(you)');

    const email = uniqueEmail('bookkeeper');
    await page.getByRole('button', { name: 'Invite a member' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite a team member' });
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Role').selectOption('accountant');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await page.getByText(`Invitation sent to ${email}.`).waitFor();
    const pending = page
      .getByRole('table', { name: 'Pending invitations' })
      .getByRole('row', { name: new RegExp(email) });
    await pending.waitFor();
    expect(await pending.textContent()).toMatch(/Accountant.*pending/);
    const team = (await unwrap(owner.client.team.getTeam())).data;
    expect(team.invitations.map((i) => [i.email, i.role])).toEqual([[email, 'accountant']]);

    // The server's refusal shows in the dialog: the owner is already in the team (409).
    await page.getByRole('button', { name: 'Invite a member' }).click();
    await dialog.getByLabel('Email').fill(owner.email);
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await dialog
      .getByRole('alert')
      .filter({ hasText: /already/i })
      .waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // A member's role changes in place, and a member is removed after a confirmation that says how
    // many API keys they made go with them.
    const member = await newMember(owner, 'admin');
    const key = (
      await unwrap(member.client.auth.createApiKey({ body: { name: 'Their sync', scope: 'full' } }))
    ).data;
    await page.reload();
    await heading(page, 'Team');
    await page.getByLabel(`Role of ${member.email}`).selectOption('marketing');
    // A role that may not manage API keys keeps none of the keys the member made.
    await page
      .getByText(
        `${member.email} now has the Marketing role. The 1 API key they made was revoked: that role may not manage API keys.`,
      )
      .waitFor();
    const members = (await unwrap(owner.client.team.getTeam())).data.members;
    expect(members.find((m) => m.email === member.email)?.role).toBe('marketing');
    const revokedClient = createClient({ baseUrl: server().baseUrl, accessToken: key.key, maxRetries: 0 });
    expect((await revokedClient.auth.getBusiness()).status).toBe(401);
    await expectAccessible(page, 'settings-team');
    await screenshot(page, 'settings-team');

    // Made an admin again, they make another key, which their removal takes with them.
    await page.getByLabel(`Role of ${member.email}`).selectOption('admin');
    await page.getByText(`${member.email} now has the Admin role.`).waitFor();
    const kept = (
      await unwrap(member.client.auth.createApiKey({ body: { name: 'Their new sync', scope: 'full' } }))
    ).data;
    await page.reload();
    await heading(page, 'Team');

    await page.getByRole('button', { name: `Remove ${member.email}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove this member?' });
    await confirm.getByText('The 1 API key they made (live and sandbox) is revoked too').waitFor();
    await confirm.getByRole('button', { name: 'Remove member' }).click();
    await page
      .getByText(`${member.email} was removed from the team, and 1 API key they made was revoked.`)
      .waitFor();
    const keyClient = createClient({ baseUrl: server().baseUrl, accessToken: kept.key, maxRetries: 0 });
    expect((await keyClient.auth.getBusiness()).status).toBe(401);
    await expect.poll(() => page.getByRole('row', { name: new RegExp(member.email) }).count()).toBe(0);
    expect((await member.client.auth.getSession()).status).toBe(401);
    await finish(app, [409]);
  }, 90_000);

  it('shows a viewer the team without its controls, and no API keys, webhooks or audit log', async () => {
    const owner = await registerBusiness(server(), 'Viewed Ltd');
    const viewer = await newMember(owner, 'viewer');
    const app = await open(viewer, '/settings/team');
    const { page } = app;
    await heading(page, 'Team');
    await page.getByRole('row', { name: new RegExp(owner.email) }).waitFor();
    expect(await page.getByRole('button', { name: 'Invite a member' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
    expect(await page.getByRole('combobox').count()).toBe(0);
    expect(await page.getByText('An owner or admin can invite people to the team.').count()).toBe(1);

    const nav = page.getByRole('navigation', { name: 'Main' });
    const links = await nav.getByRole('link').allTextContents();
    expect(links).toEqual(expect.arrayContaining(['Business', 'Team', 'Sender domains']));
    for (const hidden of ['API keys', 'Webhooks', 'Audit log']) expect(links).not.toContain(hidden);
    await expectAccessible(page, 'settings-team-viewer');
    await screenshot(page, 'settings-team-viewer');

    // Business settings are read-only for a viewer.
    await nav.getByRole('link', { name: 'Business' }).click();
    await heading(page, 'Business settings');
    await page.getByText('Your role can see these settings but not change them.').waitFor();
    expect(await page.getByRole('button', { name: 'Save settings' }).count()).toBe(0);
    expect(await page.getByRole('textbox').count()).toBe(0);

    // A screen the role may not open says so rather than failing.
    await page.goto('/app/settings/api-keys');
    await heading(page, 'API keys');
    await page.getByText(/cannot open this screen/).waitFor();
    await expectAccessible(page, 'settings-business-viewer');
    await finish(app);
  }, 90_000);
});

describe('business settings', () => {
  it('shows a refused value beside its field, and a valid save persists across a reload', async () => {
    const biz = await registerBusiness(server(), 'Settings Ltd');
    const app = await open(biz, '/settings/business');
    const { page } = app;
    await heading(page, 'Business settings');
    const timeZone = page.getByLabel('Time zone');
    await expect.poll(() => timeZone.inputValue()).toBe('UTC');

    // Time zone and country are chosen from lists (settings-pickers.test.ts); a refused field here.
    const days = page.getByLabel('Days after the due date');
    await days.fill('0, 400');
    await page.getByRole('button', { name: 'Save settings' }).click();
    const daysField = page.locator('.field').filter({ has: days });
    await daysField.getByRole('alert').filter({ hasText: '400:' }).waitFor();
    expect(await days.getAttribute('aria-invalid')).toBe('true');
    await page.getByText(/^Check the highlighted fields?\.$/).waitFor();
    await expectAccessible(page, 'settings-business-invalid');
    await screenshot(page, 'settings-business-invalid');
    // Nothing was sent.
    expect((await unwrap(biz.client.auth.getBusiness())).data.timezone).toBe('UTC');

    await page.getByLabel('Business name').fill('Settings & Sons Ltd');
    await page.getByLabel('Base currency').selectOption('GBP');
    await timeZone.selectOption('Europe/London');
    await page.getByLabel('Country of registration').selectOption('GB');
    await days.fill('0, 7, 14');
    await page.getByLabel('Tax number').fill('GB123456789');
    await page.getByLabel('Address line 1').fill('12 St James Square');
    await page.getByLabel('City').fill('London');
    await page.getByLabel('Postal code').fill('SW1Y 4LB');
    await page.getByLabel('Country', { exact: true }).selectOption('GB');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    expect(await timeZone.getAttribute('aria-invalid')).toBeNull();
    await screenshot(page, 'settings-business');

    await page.reload();
    await heading(page, 'Business settings');
    await expect.poll(() => page.getByLabel('Business name').inputValue()).toBe('Settings & Sons Ltd');
    expect(await page.getByLabel('Base currency').inputValue()).toBe('GBP');
    expect(await page.getByLabel('Time zone').inputValue()).toBe('Europe/London');
    expect(await page.getByLabel('Country of registration').inputValue()).toBe('GB');
    expect(await page.getByLabel('Tax number').inputValue()).toBe('GB123456789');
    expect(await page.getByLabel('City').inputValue()).toBe('London');
    expect((await unwrap(biz.client.auth.getBusiness())).data).toMatchObject({
      name: 'Settings & Sons Ltd',
      base_currency: 'GBP',
      timezone: 'Europe/London',
      country: 'GB',
      tax_number: 'GB123456789',
      address: { line1: '12 St James Square', city: 'London', postal_code: 'SW1Y 4LB', country: 'GB' },
    });
    await expectAccessible(page, 'settings-business');
    await finish(app);
  }, 90_000);
});

describe('sender domains', () => {
  it('adds a domain, shows its records to copy, and verifies it once they are published', async () => {
    const biz = await registerBusiness(server(), 'Mail Ltd');
    const app = await open(biz, '/settings/domains');
    const { page } = app;
    await heading(page, 'Sender domains');
    await page.getByText('No sender domains yet').waitFor();

    await page.getByRole('textbox', { name: 'Domain' }).fill('not a domain');
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.getByText('Enter a domain name, like mail.example.com.').waitFor();

    const name = uniqueDomain();
    await page.getByRole('textbox', { name: 'Domain' }).fill(name.toUpperCase());
    await page.getByRole('button', { name: 'Add domain' }).click();
    await page.getByRole('heading', { name, level: 2 }).waitFor();
    const [domain] = (await unwrap(biz.client.marketing.domains.listDomains())).domains;
    expect(domain?.domain).toBe(name);
    const card = page.locator('section.domain');
    for (const record of domain!.verification) {
      expect(await card.textContent()).toContain(record.name);
      expect(await card.textContent()).toContain(record.value);
    }
    await card.getByRole('button', { name: 'Copy the value of the DKIM signing key record' }).click();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(
      domain!.verification[1]!.value,
    );

    // Nothing published yet: each record says it was not found.
    await card.getByRole('button', { name: `Verify ${name}` }).click();
    await card.getByText(/Not verified yet/).waitFor();
    expect(await card.getByText('not found', { exact: true }).count()).toBe(2);
    await expectAccessible(page, 'settings-domains');
    await screenshot(page, 'settings-domains');

    publishRecords(server().dns, domain!);
    await card.getByRole('button', { name: `Verify ${name}` }).click();
    await page.getByText(`${name} is verified.`).waitFor();
    expect(await card.locator('.badge-verified').count()).toBe(3);
    expect(await card.getByRole('button', { name: `Verify ${name}` }).count()).toBe(0);
    await screenshot(page, 'settings-domains-verified');
    await finish(app);
  }, 90_000);
});

describe('audit log', () => {
  it('lists the changes made, filtered and paged from the URL', async () => {
    const biz = await registerBusiness(server(), 'Audited Ltd');
    for (let i = 0; i < 52; i++) await createCustomer(biz.client, { name: `Customer ${i}` });
    const key = (
      await unwrap(biz.client.auth.createApiKey({ body: { name: 'Till', scope: 'public_loyalty' } }))
    ).data;
    await unwrap(biz.client.auth.updateBusiness({ body: { timezone: 'Europe/Paris' } }));

    const app = await open(biz, '/audit-log');
    const { page } = app;
    await heading(page, 'Audit log');
    const rows = page.getByRole('table', { name: 'Audit log entries' }).locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(50);
    expect(await rows.first().textContent()).toContain('Changed the business settings');
    expect(await rows.nth(1).textContent()).toContain('Created API key Till');
    expect(await rows.nth(1).getByRole('link', { name: 'API key Till' }).getAttribute('href')).toBe(
      '/app/settings/api-keys',
    );
    expect(await rows.first().textContent()).toContain(`${biz.email} (you)`);
    await page.getByText('Page 1 of 2 · 54 in all').waitFor();
    await expectAccessible(page, 'audit-log');
    await screenshot(page, 'settings-audit-log');

    // A chosen filter lands in the URL...
    await page.getByLabel('Change').selectOption({ label: 'Added a customer' });
    await expect.poll(() => appUrl(page)).toBe('/audit-log?operation=createCustomer');
    await page.getByText('Page 1 of 2 · 52 in all').waitFor();
    // ...and so does the page.
    await page.getByRole('link', { name: 'Next →' }).click();
    await expect.poll(() => appUrl(page)).toBe('/audit-log?operation=createCustomer&page=2');
    await page.getByText('Page 2 of 2 · 52 in all').waitFor();
    expect(await rows.count()).toBe(2);

    // A reload lands on the same filtered page.
    await page.reload();
    await heading(page, 'Audit log');
    await page.getByText('Page 2 of 2 · 52 in all').waitFor();
    expect(await page.getByLabel('Change').inputValue()).toBe('createCustomer');
    const changes = await rows.locator('td:nth-child(3)').allTextContents();
    expect(changes).toEqual(['Added customer Customer 1', 'Added customer Customer 0']);
    await screenshot(page, 'settings-audit-log-filtered');

    // A bookmarked filter by resource.
    await page.goto(`/app/audit-log?resource_id=${key.id}`);
    await page.getByText('1 in all').waitFor();
    expect(await page.getByLabel('Resource id').inputValue()).toBe(key.id);
    expect(await rows.first().textContent()).toContain('Created API key Till');

    // Nothing matches: the empty state says so.
    await page.goto('/app/audit-log?operation=deleteInvoice');
    await page.getByText('No changes match these filters').waitFor();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => appUrl(page)).toBe('/audit-log');
    await page.getByText('Page 1 of 2 · 54 in all').waitFor();
    await finish(app);
  }, 120_000);
});
