import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import {
  expectAccessible,
  expectClean,
  openApp,
  screenshot,
  useBrowser,
  type AppPage,
} from '../support/browser.js';
import { registerBusiness, type TestBusiness } from '../support/business.js';
import { createCustomer } from '../support/general.js';
import { createRedemption, createReminder, enrollMember, newReward } from '../support/loyalty.js';
import { createSegment, createTemplate, MARKETING_ENV, TRUSTED_DOMAIN } from '../support/marketing.js';
import { useTestServer } from '../support/setup.js';
import { useSmtpSink } from '../support/smtp.js';

/*
 * The marketing and loyalty screens in a real browser: a campaign built and sent from the screens
 * reaches its two contacts through a local SMTP sink and shows its analytics; a member's points
 * adjusted on the member's page show in their transactions; every screen passes axe and logs
 * nothing unexpected.
 */

const { env, sink } = useSmtpSink({ ...MARKETING_ENV, MARKETING_POLL_MS: '40', MAIL_RATE_PER_SECOND: '0' });
const server = useTestServer({ env });
const browser = useBrowser();

const open = (business: TestBusiness, path: string) =>
  openApp(browser(), server().baseUrl, `/app${path}`, { accessToken: business.accessToken });

const heading = (page: Page, name: string) => page.getByRole('heading', { name, level: 1 }).waitFor();

/** axe, a screenshot, and the page's log: every screen gets the three. */
async function check(app: AppPage, name: string, allowedStatuses: number[] = []) {
  await expectAccessible(app.page, name);
  await screenshot(app.page, name);
  expectClean(app, allowedStatuses);
}

let counter = 0;
const address = (tag: string) => `${tag}-${++counter}-${Date.now().toString(36)}@contacts.example.test`;

describe('marketing screens', () => {
  it('builds a two-contact segment, writes a template, and sends a campaign from the screens', async () => {
    const biz = await registerBusiness(server(), 'Rocket Shop');
    const ada = await createCustomer(biz.client, {
      name: 'Ada Rocket',
      first_name: 'Ada',
      company: 'Acme Rockets',
      email: address('ada'),
    });
    const bob = await createCustomer(biz.client, {
      name: 'Bob Rocket',
      first_name: 'Bob',
      company: 'acme rockets',
      email: address('bob'),
    });
    const carol = await createCustomer(biz.client, {
      name: 'Carol Other',
      company: 'Elsewhere Ltd',
      email: address('carol'),
    });

    // Segments: empty, then one made and narrowed to the company's two contacts.
    const app = await open(biz, '/marketing/segments');
    const { page } = app;
    await heading(page, 'Segments');
    await page.getByText('No segments yet').waitFor();
    await check(app, 'marketing-segments-empty');
    await page.getByRole('button', { name: 'New segment' }).click();
    const newSegment = page.getByRole('dialog', { name: 'New segment' });
    await newSegment.getByLabel('Name', { exact: true }).fill('Rocket fans');
    await newSegment.getByRole('button', { name: 'Create segment' }).click();
    await heading(page, 'Rocket fans');
    const count = page.getByRole('region', { name: 'Contacts now' }).locator('.figure');
    await expect.poll(() => count.textContent()).toBe('3');

    // A condition without a value is refused beside its field, before anything is sent.
    await page.getByRole('button', { name: 'Add condition' }).click();
    await page.getByRole('button', { name: 'Save conditions' }).click();
    await expect.poll(() => page.getByLabel('Value, condition 1').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Field, condition 1').selectOption('company');
    await page.getByLabel('Operator, condition 1').selectOption('eq');
    await page.getByLabel('Value, condition 1').fill('Acme Rockets');
    await page.getByRole('button', { name: 'Save conditions' }).click();
    await page.getByText('Conditions saved.').waitFor();
    await expect.poll(() => count.textContent()).toBe('2');
    const contacts = page.getByRole('table', { name: 'Contacts in Rocket fans' });
    await expect.poll(() => contacts.getByRole('row').count()).toBe(3);
    expect(await contacts.textContent()).toContain(ada.email!);
    expect(await contacts.textContent()).toContain(bob.email!);
    expect(await contacts.textContent()).not.toContain(carol.email!);
    const segmentId = /\/marketing\/segments\/(\w+)$/.exec(page.url())![1]!;
    const saved = (await unwrap(biz.client.marketing.segments.getSegment({ params: { id: segmentId } })))
      .segment;
    expect(saved.filters).toEqual({
      match: 'all',
      conditions: [{ field: 'company', operator: 'eq', value: 'Acme Rockets' }],
    });
    await check(app, 'marketing-segment');
    await page.goto('/app/marketing/segments');
    await page.getByRole('row', { name: /Rocket fans/ }).waitFor();
    expect(await page.getByRole('row', { name: /Rocket fans/ }).textContent()).toContain('1 condition');
    await check(app, 'marketing-segments');

    // Templates: one written, with a merge tag, previewed for Ada; its text part derived.
    await page.goto('/app/marketing/templates');
    await heading(page, 'Templates');
    await page.getByText('No templates yet').waitFor();
    await page.getByRole('button', { name: 'New template' }).click();
    const newTemplate = page.getByRole('dialog', { name: 'New template' });
    await newTemplate.getByLabel('Name', { exact: true }).fill('Launch news');
    await newTemplate.getByLabel('Subject').fill('Lift-off, {{first_name}}!');
    await newTemplate.getByLabel('From name').fill('Rocket Shop');
    await newTemplate.getByLabel('From email').fill(`news@${TRUSTED_DOMAIN}`);
    await newTemplate
      .getByLabel('HTML body')
      .fill('<p>Hello {{first_name}},</p><p>The new rocket is here.</p>');
    await newTemplate.getByRole('button', { name: 'Create template' }).click();
    await heading(page, 'Launch news');
    await page.locator('.derived pre').getByText('The new rocket is here.').waitFor();
    // A merge tag inserted from the list, saved, then previewed for Ada.
    await page.getByRole('button', { name: 'Insert {{company}} into the HTML body' }).click();
    expect(await page.getByLabel('HTML body').inputValue()).toContain('{{company}}');
    await page.getByRole('button', { name: 'Save template' }).click();
    await page.getByText('Template saved.').waitFor();
    await page.getByLabel('Contact', { exact: true }).selectOption(ada.id);
    await page.getByRole('button', { name: 'Preview', exact: true }).click();
    await expect.poll(() => page.locator('.preview-subject').textContent()).toBe('Lift-off, Ada!');
    expect(await page.locator('.mail-html').textContent()).toContain('Hello Ada,');
    expect(await page.locator('.mail-html').textContent()).toContain('Acme Rockets');
    expect(await page.locator('.mail-preview pre').textContent()).toContain('Hello Ada,');
    await check(app, 'marketing-template');
    // A sender outside a verified domain is the service's refusal, shown beside the field.
    await page.getByLabel('From email').fill('news@unverified.example');
    await page.getByRole('button', { name: 'Save template' }).click();
    await expect.poll(() => page.getByLabel('From email').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('From email').fill(`news@${TRUSTED_DOMAIN}`);
    await page.getByRole('button', { name: 'Save template' }).click();
    await page.getByText('Template saved.').waitFor();
    expectClean(app, [422]);
    await page.goto('/app/marketing/templates');
    await page.getByRole('row', { name: /Launch news/ }).waitFor();
    await check(app, 'marketing-templates', [422]);

    // A campaign of the two, created and sent from the screens.
    await page.goto('/app/marketing/campaigns');
    await heading(page, 'Campaigns');
    await page.getByText('No campaigns yet').waitFor();
    await page.getByRole('button', { name: 'New campaign' }).click();
    const newCampaign = page.getByRole('dialog', { name: 'New campaign' });
    await newCampaign.getByLabel('Name', { exact: true }).fill('Launch day');
    const templateId = (await unwrap(biz.client.marketing.templates.listTemplates({ query: {} })))
      .templates[0]!.id;
    await newCampaign.getByLabel('Template', { exact: true }).selectOption(templateId);
    await newCampaign.getByLabel('Segment', { exact: true }).selectOption(segmentId);
    await newCampaign.getByRole('button', { name: 'Create draft' }).click();
    await heading(page, 'Launch day');
    await page.getByText('A draft: send it now or schedule it.').waitFor();
    await check(app, 'marketing-campaign-draft', [422]);
    await page.getByRole('button', { name: 'Send now' }).click();
    const confirm = page.getByRole('dialog', { name: 'Send this campaign now?' });
    await confirm.getByRole('button', { name: 'Send now' }).click();
    // The page follows the sending on its own until the campaign is sent.
    await page
      .locator('.status-line')
      .getByText(/Sent .* to 2 recipients\./)
      .waitFor({ timeout: 20_000 });
    const analytics = page.getByRole('region', { name: 'Analytics' });
    await expect
      .poll(() => analytics.locator('dl.stat-grid > div').allTextContents())
      .toEqual(expect.arrayContaining(['Recipients2', 'Delivered2']));
    const recipients = page.getByRole('table', { name: 'Recipients' });
    await expect.poll(() => recipients.getByRole('row').count()).toBe(3);
    expect(await recipients.textContent()).toContain(ada.email!);
    expect(await recipients.textContent()).toContain(bob.email!);
    expect(sink().to(ada.email!)).toHaveLength(1);
    expect(sink().to(bob.email!)).toHaveLength(1);
    expect(sink().to(carol.email!)).toEqual([]);
    expect(sink().to(ada.email!)[0]!.mail.subject).toBe('Lift-off, Ada!');
    const campaignId = /\/marketing\/campaigns\/(\w+)$/.exec(page.url())![1]!;
    expect(
      (await unwrap(biz.client.marketing.campaigns.getCampaign({ params: { id: campaignId } }))).campaign,
    ).toMatchObject({ status: 'sent', recipients_count: 2 });
    await check(app, 'marketing-campaign-sent', [422]);
    // Recipients by status, in the URL.
    await page
      .getByRole('navigation', { name: 'Recipient status' })
      .getByRole('link', { name: 'Bounced' })
      .click();
    await page.getByText('No bounced recipients').waitFor();
    expect(page.url()).toContain('recipients=bounced');

    // A second campaign scheduled, paused, resumed and cancelled from its page.
    const later = await unwrap(
      biz.client.marketing.campaigns.createCampaign({
        body: { name: 'Next week', template_id: templateId, segment_id: segmentId },
      }),
    );
    await page.goto(`/app/marketing/campaigns/${later.campaign_id}`);
    await heading(page, 'Next week');
    await page.getByRole('button', { name: 'Schedule' }).click();
    const schedule = page.getByRole('dialog', { name: 'Schedule the campaign' });
    await schedule.getByLabel('Send at').fill('2031-06-01T09:00');
    await schedule.getByRole('button', { name: 'Schedule' }).click();
    await page.getByText(/^Scheduled for /).waitFor();
    await page
      .locator('.status-line')
      .getByText(/Sends at/)
      .waitFor();
    await page.getByRole('button', { name: 'Pause' }).click();
    await page
      .getByRole('dialog', { name: 'Pause this campaign?' })
      .getByRole('button', { name: 'Pause' })
      .click();
    await page.locator('.status-line').getByText('Paused.').waitFor();
    await page.getByRole('button', { name: 'Resume' }).click();
    await page
      .getByRole('dialog', { name: 'Resume this campaign?' })
      .getByRole('button', { name: 'Resume' })
      .click();
    await page.getByText('Resumed: scheduled again.').waitFor();
    await page.getByRole('button', { name: 'Cancel campaign' }).click();
    await page
      .getByRole('dialog', { name: 'Cancel this campaign?' })
      .getByRole('button', { name: 'Cancel campaign' })
      .click();
    await page.locator('.status-line').getByText('Cancelled.').waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Send now' }).count()).toBe(0);
    expect(
      (await unwrap(biz.client.marketing.campaigns.getCampaign({ params: { id: later.campaign_id } })))
        .campaign.status,
    ).toBe('cancelled');
    await check(app, 'marketing-campaign-cancelled', [422]);

    // The list, filtered by status in the URL.
    await page.goto('/app/marketing/campaigns?status=sent');
    await page.getByRole('row', { name: /Launch day/ }).waitFor();
    expect(await page.getByRole('row', { name: /Next week/ }).count()).toBe(0);
    await check(app, 'marketing-campaigns', [422]);

    // Suppressions: a hard bounce reported for a campaign counts in its analytics.
    await page.goto('/app/marketing/suppressions');
    await heading(page, 'Suppressions and bounces');
    await page.getByText('No bounces').waitFor();
    await page.getByLabel('Email address').fill(bob.email!);
    await page.getByLabel('Campaign').selectOption(campaignId);
    await page.getByRole('button', { name: 'Report' }).click();
    await page.getByText(`${bob.email!} is suppressed: no campaign will mail it again.`).waitFor();
    expect(
      (await unwrap(biz.client.marketing.campaigns.getCampaignAnalytics({ params: { id: campaignId } })))
        .analytics.bounced,
    ).toBe(1);
    const bounced = page.getByRole('table', { name: 'Bounced and failed recipients' }).getByRole('row', {
      name: new RegExp(bob.email!),
    });
    await bounced.waitFor();
    expect(await bounced.textContent()).toContain('Launch day');
    await check(app, 'marketing-suppressions', [422]);
    await app.close();

    // A segment made through the API shows its count on the list of a fresh page too.
    await createSegment(biz.client, { name: 'All of them' });
    await createTemplate(biz.client, { name: 'Unused' });
    const fresh = await open(biz, '/marketing/segments?status=active');
    await fresh.page.getByRole('row', { name: /All of them/ }).waitFor();
    expect(await fresh.page.getByRole('row', { name: /All of them/ }).textContent()).toContain('3');
    expectClean(fresh);
    await fresh.close();
  }, 120_000);
});

describe('loyalty screens', () => {
  it('sets up a program and tiers, adjusts a member’s points and shows them in the transactions', async () => {
    const biz = await registerBusiness(server(), 'Coffee Club Ltd');
    const app = await open(biz, '/loyalty/program');
    const { page } = app;
    await heading(page, 'Loyalty program');
    await page.getByRole('heading', { name: 'Start a loyalty program' }).waitFor();
    await check(app, 'loyalty-program-new');
    await page.getByLabel('Program name').fill('Coffee Club');
    await page.getByLabel('Points are called').fill('Beans');
    await page.getByLabel('Points per unit of currency').fill('10');
    await page.getByRole('button', { name: 'Create program' }).click();
    await heading(page, 'Coffee Club');
    await page.getByText('No tiers').waitFor();
    await page.getByRole('button', { name: 'Add tier' }).click();
    const tierDialog = page.getByRole('dialog', { name: 'Add a tier' });
    await tierDialog.getByLabel('Tier name').fill('Gold');
    await tierDialog.getByLabel('Lifetime points to reach it').fill('1000');
    await tierDialog.getByLabel('Earning multiplier').fill('1.5');
    await tierDialog.getByRole('button', { name: 'Add tier' }).click();
    await page.getByRole('row', { name: /Gold/ }).waitFor();
    expect(await page.getByRole('row', { name: /Gold/ }).textContent()).toContain('×1.5');
    const program = (await unwrap(biz.client.loyalty.program.getProgram())).data!;
    expect(program).toMatchObject({ name: 'Coffee Club', pointsName: 'Beans', pointsPerCurrency: 10 });
    await check(app, 'loyalty-program');

    // A member, a reward, a pending redemption and a reminder, made through the API.
    const ada = await enrollMember(biz.client, { customer: { name: 'Ada Beans' }, initialPoints: 500 });
    await enrollMember(biz.client, { customer: { name: 'Bob Crema' } });
    const reward = await newReward(biz, { name: 'Free flat white', pointsCost: 120 });
    const redemption = await createRedemption(biz.client, {
      memberId: ada.publicId,
      rewardId: reward.publicId,
    });
    await createReminder(biz.client, { name: 'Grinder service', intervalDays: 90, bonusPoints: 25 });

    // Members: searched from the URL, then Ada's page.
    await page.goto('/app/loyalty/members');
    await heading(page, 'Members');
    await page.getByRole('row', { name: /Bob Crema/ }).waitFor();
    await page.getByLabel('Search').fill('ada');
    await expect.poll(() => page.url()).toContain('search=ada');
    await expect.poll(() => page.getByRole('row', { name: /Bob Crema/ }).count()).toBe(0);
    await page.getByRole('row', { name: /Ada Beans/ }).waitFor();
    await check(app, 'loyalty-members');
    await page.getByRole('link', { name: 'Ada Beans' }).click();
    await heading(page, 'Ada Beans');
    const balance = page.getByRole('region', { name: 'Balance' }).locator('.figure');
    await expect.poll(() => balance.textContent()).toBe('380');

    // Points adjusted: refused beside the field when zero, then added and listed.
    await page.getByLabel('Points', { exact: true }).fill('0');
    await page.getByLabel('Reason').fill('Nothing');
    await page.getByRole('button', { name: 'Adjust' }).click();
    await expect
      .poll(() => page.getByLabel('Points', { exact: true }).getAttribute('aria-invalid'))
      .toBe('true');
    await page.getByLabel('Points', { exact: true }).fill('250');
    await page.getByLabel('Reason').fill('Birthday bonus');
    await page.getByRole('button', { name: 'Adjust' }).click();
    await page.getByText('Added 250 points: the balance is 630.').waitFor();
    await expect.poll(() => balance.textContent()).toBe('630');
    const ledger = page.getByRole('table', { name: 'Transactions of Ada Beans' });
    const bonus = ledger.getByRole('row', { name: /Birthday bonus/ });
    await bonus.waitFor();
    expect(await bonus.textContent()).toContain('+250');
    expect(await bonus.textContent()).toContain('630');
    // Removing more than the balance is the service's refusal, beside the field.
    await page.getByLabel('Points', { exact: true }).fill('-5000');
    await page.getByLabel('Reason').fill('Too much');
    await page.getByRole('button', { name: 'Adjust' }).click();
    await expect
      .poll(() => page.getByLabel('Points', { exact: true }).getAttribute('aria-invalid'))
      .toBe('true');
    await page.getByText('The member has 630 points; 5000 needed').waitFor();
    const txs = (
      await unwrap(
        biz.client.loyalty.members.listMemberTransactions({ params: { publicId: ada.publicId }, query: {} }),
      )
    ).data;
    expect(txs[0]).toMatchObject({
      type: 'adjust',
      points: 250,
      balanceAfter: 630,
      description: 'Birthday bonus',
    });
    await check(app, 'loyalty-member', [422]);
    // Transactions by type, in the URL.
    await page
      .getByRole('navigation', { name: 'Transaction type' })
      .getByRole('link', { name: 'Redeem' })
      .click();
    await expect.poll(() => ledger.getByRole('row').count()).toBe(2);
    expect(await ledger.textContent()).toContain('-120');
    expect(page.url()).toContain('type=redeem');

    // Rewards.
    await page.goto('/app/loyalty/rewards');
    await heading(page, 'Rewards');
    await page.getByRole('row', { name: /Free flat white/ }).waitFor();
    await page.getByRole('button', { name: 'Add reward' }).click();
    const rewardDialog = page.getByRole('dialog', { name: 'Add a reward' });
    await rewardDialog.getByLabel('Name', { exact: true }).fill('Ten percent off');
    await rewardDialog.getByLabel('Points cost').fill('300');
    await rewardDialog.getByLabel('Type').selectOption('discount');
    await rewardDialog.getByLabel('Discount (%)').fill('10');
    await rewardDialog.getByRole('button', { name: 'Add reward' }).click();
    await page.getByText('Ten percent off was added.').waitFor();
    expect(await page.getByRole('row', { name: /Ten percent off/ }).textContent()).toContain('Discount 10%');
    await check(app, 'loyalty-rewards', [422]);

    // Vouchers: Ada's code is valid; an unknown one is said beside the field.
    await page.goto('/app/loyalty/vouchers');
    await heading(page, 'Vouchers');
    await page.getByLabel('Voucher code').fill(redemption.voucherCode.toLowerCase().replace(/-/g, ' '));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('heading', { name: 'Valid: hand over the reward' }).waitFor();
    expect(page.url()).toContain(`code=${redemption.voucherCode}`);
    await check(app, 'loyalty-vouchers', [422]);
    await page.getByLabel('Voucher code').fill('AAAA-BBBB-CCCC');
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByText('No voucher has the code AAAA-BBBB-CCCC.').waitFor();
    expectClean(app, [404, 422]);

    // Redemptions: the pending one fulfilled.
    await page.goto('/app/loyalty/redemptions?status=pending');
    await heading(page, 'Redemptions');
    const row = page.getByRole('row', { name: new RegExp(redemption.voucherCode) });
    await row.waitFor();
    await check(app, 'loyalty-redemptions', [404, 422]);
    await row.getByRole('button', { name: `Fulfil ${redemption.voucherCode}` }).click();
    await page
      .getByRole('dialog', { name: `Fulfil voucher ${redemption.voucherCode}?` })
      .getByRole('button', { name: 'Mark fulfilled' })
      .click();
    await page.getByText('Free flat white for Ada Beans is fulfilled.').waitFor();
    await page.getByText('No pending redemptions').waitFor();
    const after = (await unwrap(biz.client.loyalty.redemptions.listRedemptions({ query: {} }))).data;
    expect(after[0]).toMatchObject({ publicId: redemption.publicId, status: 'fulfilled' });

    // Reminders: the service recorded for Ada awards its bonus.
    await page.goto('/app/loyalty/reminders');
    await heading(page, 'Service reminders');
    await page.getByRole('button', { name: 'Record service Grinder service' }).click();
    const record = page.getByRole('dialog', { name: 'Record Grinder service' });
    await record.getByLabel('Member', { exact: true }).selectOption(ada.publicId);
    await record.getByRole('button', { name: 'Record service' }).click();
    await page.getByText(/Grinder service recorded: 25 bonus points\. Next due /).waitFor();
    await check(app, 'loyalty-reminders', [404, 422]);

    // Stats.
    await page.goto('/app/loyalty/stats');
    await heading(page, 'Loyalty stats');
    await expect
      .poll(() => page.getByRole('region', { name: 'Members', exact: true }).locator('.figure').textContent())
      .toBe('2');
    await page.getByRole('table', { name: 'Members by tier' }).getByRole('row', { name: /Gold/ }).waitFor();
    await check(app, 'loyalty-stats', [404, 422]);
    await app.close();
  }, 120_000);
});
