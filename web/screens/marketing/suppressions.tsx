import { useState } from 'preact/hooks';
import { marketing, unwrap } from '../../../client/index.js';
import { ListSection } from '../../components/list-page.js';
import { Badge, Button, ErrorMessage, Field, Link, Notice, PageHeader, Select } from '../../components/ui.js';
import { dateTime } from '../../lib/format.js';
import { useDraft, useForm, useLoad } from '../../lib/forms.js';
import { listOf } from '../../lib/list-query.js';
import { summaryOf } from '../../lib/refusals.js';
import { api, can } from '../../lib/api.js';
import type { ScreenProps } from '../../lib/screen.js';

/**
 * Suppressions and bounces: a bounce or complaint reported from the mail provider's feedback (hard
 * bounces and complaints suppress the address for every future campaign), and the recipients of
 * recent campaigns that bounced or failed.
 */

const TYPES = [
  { value: 'hard', label: 'Hard bounce' },
  { value: 'complaint', label: 'Complaint' },
  { value: 'soft', label: 'Soft bounce' },
] as const;

/** Campaigns looked through for bounced and failed recipients. */
const RECENT = 20;

function ReportBounce(props: { campaigns: marketing.Campaign[]; onReported: () => void }) {
  const { draft, setDraft, bind } = useDraft(() => ({
    email: '',
    type: 'hard',
    campaign_id: '',
    reason: '',
  }));
  const email = draft.email.trim();
  const [reported, setReported] = useState<string | null>(null);
  const form = useForm();
  return (
    <section class="panel" aria-labelledby="report-bounce">
      <h2 id="report-bounce">Report a bounce or complaint</h2>
      <p class="hint report-intro">
        From your mail provider’s feedback. A hard bounce (the address does not exist) or a complaint (marked
        as spam) stops every future campaign of the business from mailing the address; a soft bounce (mailbox
        full) is only counted. A campaign named here counts it in its analytics.
      </p>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setReported(null);
          void form
            .submit(
              marketing.BounceBodySchema,
              {
                ...draft,
                email,
                campaign_id: draft.campaign_id || undefined,
                reason: draft.reason.trim() || undefined,
              },
              (body) => unwrap(api.value.marketing.campaigns.reportBounce({ body })),
            )
            .then((answer) => {
              if (!answer) return;
              setReported(
                draft.type === 'soft'
                  ? `The soft bounce of ${email} was recorded.`
                  : `${email} is suppressed: no campaign will mail it again.`,
              );
              setDraft((d) => ({ ...d, email: '', reason: '' }));
              props.onReported();
            });
        }}
      >
        <div class="form-grid">
          <Field label="Email address" type="email" {...bind('email', form.errors)} required />
          <Select label="Type" {...bind('type', form.errors)} options={TYPES} />
          <Select
            label="Campaign"
            {...bind('campaign_id', form.errors)}
            options={[
              { value: '', label: 'None' },
              ...props.campaigns.map((c) => ({ value: c.id, label: c.name })),
            ]}
          />
          <Field label="Reason" {...bind('reason', form.errors)} placeholder="550 5.1.1 user unknown" />
        </div>
        {reported ? <Notice kind="success">{reported}</Notice> : null}
        <ErrorMessage message={summaryOf(form)} />
        <div class="form-actions">
          <Button type="submit" kind="primary" busy={form.busy}>
            Report
          </Button>
        </div>
      </form>
    </section>
  );
}

interface Problem extends marketing.Recipient {
  campaign: marketing.Campaign;
}

export default function Suppressions(_props: ScreenProps) {
  const [version, setVersion] = useState(0);
  const campaigns = useLoad(
    async () =>
      (await unwrap(api.value.marketing.campaigns.listCampaigns({ query: { limit: RECENT } }))).campaigns,
    [],
  );
  const problems = useLoad(async () => {
    const sent = (campaigns.data ?? []).filter((c) => c.recipients_count > 0);
    const pages = await Promise.all(
      sent.flatMap((campaign) =>
        (['bounced', 'failed'] as const).map(async (status) => {
          const page = await unwrap(
            api.value.marketing.campaigns.listCampaignRecipients({
              params: { id: campaign.id },
              query: { status, limit: 50 },
            }),
          );
          return page.recipients.map((r) => ({ ...r, campaign }));
        }),
      ),
    );
    return pages.flat();
  }, [campaigns.data, version]);

  return (
    <>
      <PageHeader title="Suppressions and bounces" />
      <p class="lead">
        Campaigns never mail an address that hard-bounced, complained or unsubscribed. Unsubscribes come from
        the link in every campaign email and from a customer’s “Opted out of marketing email”.
      </p>
      {campaigns.error ? <ErrorMessage message={campaigns.error} onRetry={campaigns.reload} /> : null}
      {can('reportBounce') ? (
        <ReportBounce campaigns={campaigns.data ?? []} onReported={() => setVersion((v) => v + 1)} />
      ) : null}
      <ListSection
        id="bounced-recipients"
        title="Bounced and failed recipients"
        before={<p class="hint">Of the {RECENT} latest campaigns.</p>}
        list={listOf({ ...problems, data: campaigns.data && problems.data })}
        empty={{
          title: 'No bounces',
          children: (
            <p>
              Every recipient of the recent campaigns was delivered or is still queued. Bounces reported here
              or by the mail server show up in this list.
            </p>
          ),
        }}
        table={{
          caption: 'Bounced and failed recipients',
          rowKey: (p: Problem) => `${p.campaign.id}:${p.email}`,
          columns: [
            { label: 'Email', render: (p) => p.email },
            { label: 'Status', render: (p) => <Badge value={p.status} /> },
            {
              label: 'Campaign',
              render: (p) => <Link to={`/marketing/campaigns/${p.campaign.id}`}>{p.campaign.name}</Link>,
            },
            { label: 'Error', render: (p) => p.error ?? '—' },
            { label: 'Sent', render: (p) => dateTime(p.sent_at) },
          ],
        }}
      />
    </>
  );
}
