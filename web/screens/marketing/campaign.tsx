import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { BmsApiError, contract, marketing, unwrap } from '../../../client/index.js';
import { Badge, Button, Dialog, ErrorMessage, Field, Link, Notice, PageHeader } from '../../components/ui.js';
import { DialogForm } from '../../components/form-dialog.js';
import { RecordUnavailable } from '../../components/record.js';
import { ListSection } from '../../components/list-page.js';
import { usePagedList } from '../../lib/list-query.js';
import { dateTime, number, percent } from '../../lib/format.js';
import { useForm, useLoad } from '../../lib/forms.js';
import { oneOf } from '../../lib/lists.js';
import { here } from '../../lib/router.js';
import { api, can } from '../../lib/api.js';
import type { ScreenProps } from '../../lib/screen.js';
import { ConfirmDialog } from '../../components/confirm.js';

/**
 * One campaign: what it sends to whom, the moves its status allows (send, schedule, pause, resume,
 * cancel), its progress while sending (polled), its analytics and its recipients by status.
 */

type Campaign = marketing.Campaign;

/** Whether sending has begun, so the service has analytics for it. */
const hasAnalytics = (c: Campaign) =>
  c.status === 'sending' || c.status === 'sent' || (c.status === 'paused' && c.recipients_count > 0);

/** How often the page asks again while the campaign moves on its own. */
const POLL_MS: Partial<Record<Campaign['status'], number>> = { sending: 1000, scheduled: 5000 };

async function loadCampaign(id: string) {
  const client = api.value;
  const { campaign } = await unwrap(client.marketing.campaigns.getCampaign({ params: { id } }));
  const named = async (call: Promise<{ name: string }>) => {
    try {
      return (await call).name;
    } catch (err) {
      if (err instanceof BmsApiError && err.status === 404) return null;
      throw err;
    }
  };
  const [template, segment, analytics] = await Promise.all([
    named(
      unwrap(client.marketing.templates.getTemplate({ params: { id: campaign.template_id } })).then(
        (r) => r.template,
      ),
    ),
    named(
      unwrap(client.marketing.segments.getSegment({ params: { id: campaign.segment_id } })).then(
        (r) => r.segment,
      ),
    ),
    hasAnalytics(campaign)
      ? unwrap(client.marketing.campaigns.getCampaignAnalytics({ params: { id } })).then((r) => r.analytics)
      : Promise.resolve(null),
  ]);
  return { campaign, template, segment, analytics };
}

function ScheduleForm(props: {
  campaign: Campaign;
  onDone: (message: string, status: Campaign['status']) => void;
  onCancel: () => void;
}) {
  const [at, setAt] = useState('');
  const form = useForm();
  return (
    <DialogForm
      form={form}
      submit="Schedule"
      onCancel={props.onCancel}
      onSubmit={() => {
        const when = at ? new Date(at) : null;
        void form
          .submit(
            marketing.ScheduleBodySchema,
            { scheduled_at: when && !Number.isNaN(when.getTime()) ? when.toISOString() : at },
            (body) =>
              unwrap(
                api.value.marketing.campaigns.scheduleCampaign({ params: { id: props.campaign.id }, body }),
              ),
          )
          .then((answer) => {
            if (answer) props.onDone(`Scheduled for ${dateTime(answer.scheduled_at)}.`, 'scheduled');
          });
      }}
    >
      <Field
        label="Send at"
        name="scheduled_at"
        type="datetime-local"
        value={at}
        onValue={setAt}
        error={form.errors.scheduled_at && (at ? form.errors.scheduled_at : 'Choose a date and time')}
        hint="Your local time; it must be ahead."
        required
      />
    </DialogForm>
  );
}

type Move = 'send' | 'pause' | 'resume' | 'cancel';

const MOVES: Record<Move, { label: string; title: string; confirm: string; kind: 'primary' | 'danger' }> = {
  send: { label: 'Send now', title: 'Send this campaign now?', confirm: 'Send now', kind: 'primary' },
  pause: { label: 'Pause', title: 'Pause this campaign?', confirm: 'Pause', kind: 'primary' },
  resume: { label: 'Resume', title: 'Resume this campaign?', confirm: 'Resume', kind: 'primary' },
  cancel: {
    label: 'Cancel campaign',
    title: 'Cancel this campaign?',
    confirm: 'Cancel campaign',
    kind: 'danger',
  },
};

/** The moves a campaign's status allows, to a role that may make them. */
function movesOf(c: Campaign): Move[] {
  const moves: Move[] = [];
  if ((c.status === 'draft' || c.status === 'scheduled') && can('sendCampaign')) moves.push('send');
  if ((c.status === 'sending' || c.status === 'scheduled') && can('pauseCampaign')) moves.push('pause');
  if (c.status === 'paused' && can('resumeCampaign')) moves.push('resume');
  if ((c.status === 'draft' || c.status === 'scheduled' || c.status === 'paused') && can('cancelCampaign'))
    moves.push('cancel');
  return moves;
}

/** Makes the move; what to say about it, shown while the campaign is in the status it led to. */
async function makeMove(move: Move, id: string): Promise<[string, Campaign['status']]> {
  const campaigns = api.value.marketing.campaigns;
  switch (move) {
    case 'send': {
      const answer = await unwrap(campaigns.sendCampaign({ params: { id } }));
      return [
        `Sending to ${number(answer.recipients_count)} recipient${answer.recipients_count === 1 ? '' : 's'}.`,
        'sending',
      ];
    }
    case 'pause':
      await unwrap(campaigns.pauseCampaign({ params: { id } }));
      return ['Paused: nobody more is sent to until it is resumed.', 'paused'];
    case 'resume': {
      const answer = await unwrap(campaigns.resumeCampaign({ params: { id } }));
      return [
        answer.status === 'scheduled' ? 'Resumed: scheduled again.' : 'Resumed: sending to the rest.',
        answer.status,
      ];
    }
    case 'cancel':
      await unwrap(campaigns.cancelCampaign({ params: { id } }));
      return ['The campaign will not be sent: cancelling is final.', 'cancelled'];
  }
}

function MoveText(props: { move: Move; segment: string | null }) {
  switch (props.move) {
    case 'send':
      return (
        <p>
          Every eligible contact of {props.segment ? <strong>{props.segment}</strong> : 'the segment'} (with
          an email, subscribed, not suppressed) gets the email now. This cannot be undone.
        </p>
      );
    case 'pause':
      return <p>Contacts not yet sent to wait until the campaign is resumed.</p>;
    case 'resume':
      return <p>The contacts not yet sent to get the email; nobody gets it twice.</p>;
    case 'cancel':
      return <p>The campaign stops for good: it cannot be sent or resumed afterwards.</p>;
  }
}

const rate = (value: number) => percent(value / 100);

function Analytics(props: { analytics: marketing.Analytics; campaign: Campaign }) {
  const a = props.analytics;
  const processed = a.delivered + a.bounced;
  const total = Math.max(a.recipients, props.campaign.recipients_count);
  return (
    <section class="panel" aria-labelledby="campaign-analytics">
      <h2 id="campaign-analytics">Analytics</h2>
      {props.campaign.status === 'sending' ? (
        <div class="send-progress">
          <label for="send-progress">
            Sending: {number(processed)} of {number(total)} processed
          </label>
          <progress id="send-progress" max={Math.max(total, 1)} value={processed} />
        </div>
      ) : null}
      <dl class="stat-grid">
        <div>
          <dt>Recipients</dt>
          <dd>{number(a.recipients)}</dd>
        </div>
        <div>
          <dt>Delivered</dt>
          <dd>{number(a.delivered)}</dd>
        </div>
        <div>
          <dt>Opened</dt>
          <dd>
            {number(a.opened)} <small>{rate(a.open_rate)} open rate</small>
          </dd>
        </div>
        <div>
          <dt>Clicked</dt>
          <dd>
            {number(a.clicked)} <small>{rate(a.click_rate)} click rate</small>
          </dd>
        </div>
        <div>
          <dt>Bounced</dt>
          <dd>
            {number(a.bounced)} <small>{rate(a.bounce_rate)} bounce rate</small>
          </dd>
        </div>
        <div>
          <dt>Unsubscribed</dt>
          <dd>
            {number(a.unsubscribed)} <small>{rate(a.unsubscribe_rate)} unsubscribe rate</small>
          </dd>
        </div>
        <div>
          <dt>Spam reports</dt>
          <dd>{number(a.spam_reports)}</dd>
        </div>
      </dl>
      <p class="hint">
        Open and click rates are of delivered mail, the bounce rate of recipients. Updated{' '}
        {dateTime(a.last_updated_at)}.
      </p>
    </section>
  );
}

function Recipients(props: { campaign: Campaign; version: number }) {
  const status = oneOf(here.value.query, 'recipients', marketing.RECIPIENT_STATUSES);
  const list = usePagedList(
    25,
    (paging) =>
      api.value.marketing.campaigns.listCampaignRecipients({
        params: { id: props.campaign.id },
        query: { status, ...paging },
      }),
    (answer) => ({ rows: answer.recipients, total: answer.total_count }),
    [props.campaign.id, status, props.version],
  );
  return (
    <ListSection
      id="campaign-recipients"
      title="Recipients"
      export={{
        route: contract.marketing.campaigns.listCampaignRecipients,
        params: { id: props.campaign.id },
        query: { status },
        what: `the recipients of ${props.campaign.name}`,
      }}
      tabs={{
        label: 'Recipient status',
        param: 'recipients',
        values: marketing.RECIPIENT_STATUSES,
        current: status,
      }}
      list={list}
      filtered={{
        active: !!status,
        title: `No ${status} recipients`,
        clear: ['recipients'],
        show: 'Show every recipient',
        after: '',
      }}
      empty={{
        title: 'No recipients yet',
        children: <p>Recipients are the eligible contacts of the segment, taken when sending starts.</p>,
      }}
      table={{
        caption: status ? `${status} recipients` : 'Recipients',
        rowKey: (r) => r.email,
        columns: [
          { label: 'Email', render: (r) => r.email },
          { label: 'Status', render: (r) => <Badge value={r.status} /> },
          { label: 'Sent', render: (r) => dateTime(r.sent_at) },
          { label: 'Opened', render: (r) => dateTime(r.opened_at) },
          { label: 'Clicked', render: (r) => dateTime(r.clicked_at) },
          { label: 'Error', render: (r) => r.error ?? '—' },
        ],
      }}
    />
  );
}

export default function CampaignScreen({ params }: ScreenProps) {
  const id = params.id!;
  const load = useLoad(() => loadCampaign(id), [id]);
  const [version, setVersion] = useState(0);
  const [move, setMove] = useState<Move | null>(null);
  const [scheduling, setScheduling] = useState(false);
  const [notice, setNotice] = useState<{ text: string; status: Campaign['status'] } | null>(null);
  const status = load.data?.campaign.status;

  // While the campaign moves on its own (sending, or waiting for its time), ask again.
  useEffect(() => {
    const every = status ? POLL_MS[status] : undefined;
    if (!every) return;
    const timer = setTimeout(() => {
      setVersion((v) => v + 1);
      load.reload();
    }, every);
    return () => clearTimeout(timer);
  }, [load.data]);

  if (!load.data) {
    return (
      <RecordUnavailable
        title="Campaign"
        load={load}
        list={{ to: '/marketing/campaigns', name: 'Campaigns' }}
      />
    );
  }
  const { campaign, template, segment, analytics } = load.data;
  const moves = movesOf(campaign);
  const done = (message: string, next: Campaign['status']) => {
    setNotice({ text: message, status: next });
    setVersion((v) => v + 1);
    load.reload();
  };

  return (
    <>
      <p class="breadcrumb">
        <Link to="/marketing/campaigns">Campaigns</Link>
      </p>
      <PageHeader title={campaign.name}>
        {moves.map((m) => (
          <Fragment key={m}>
            {m === 'cancel' && campaign.status === 'draft' && can('scheduleCampaign') ? (
              <Button onClick={() => setScheduling(true)}>Schedule</Button>
            ) : null}
            <Button
              kind={m === 'send' ? 'primary' : m === 'cancel' ? 'danger' : 'secondary'}
              onClick={() => setMove(m)}
            >
              {MOVES[m].label}
            </Button>
          </Fragment>
        ))}
        {campaign.status === 'draft' && can('scheduleCampaign') && !moves.includes('cancel') ? (
          <Button onClick={() => setScheduling(true)}>Schedule</Button>
        ) : null}
      </PageHeader>
      <p class="status-line" aria-live="polite">
        <Badge value={campaign.status} />{' '}
        {campaign.status === 'scheduled'
          ? `Sends at ${dateTime(campaign.scheduled_at)}.`
          : campaign.status === 'sent'
            ? `Sent ${dateTime(campaign.sent_at)} to ${number(campaign.recipients_count)} recipients.`
            : campaign.status === 'sending'
              ? `Sending to ${number(campaign.recipients_count)} recipients…`
              : campaign.status === 'draft'
                ? 'A draft: send it now or schedule it.'
                : campaign.status === 'paused'
                  ? 'Paused.'
                  : 'Cancelled.'}
      </p>
      {notice?.status === campaign.status ? <Notice kind="success">{notice.text}</Notice> : null}
      {campaign.paused_reason ? (
        <Notice kind="warning">The service paused it: {campaign.paused_reason}</Notice>
      ) : null}
      <ErrorMessage message={load.error} onRetry={load.reload} />
      <section class="panel" aria-labelledby="campaign-details">
        <h2 id="campaign-details">Details</h2>
        <dl class="facts">
          <dt>Template</dt>
          <dd>
            {template !== null ? (
              <Link to={`/marketing/templates/${campaign.template_id}`}>{template}</Link>
            ) : (
              'Deleted'
            )}
          </dd>
          <dt>Segment</dt>
          <dd>
            {segment !== null ? (
              <Link to={`/marketing/segments/${campaign.segment_id}`}>{segment}</Link>
            ) : (
              'Deleted'
            )}
          </dd>
          {campaign.subject_override ? (
            <>
              <dt>Subject</dt>
              <dd>{campaign.subject_override}</dd>
            </>
          ) : null}
          {campaign.from_email_override || campaign.from_name_override ? (
            <>
              <dt>From</dt>
              <dd>
                {[
                  campaign.from_name_override,
                  campaign.from_email_override && `<${campaign.from_email_override}>`,
                ]
                  .filter(Boolean)
                  .join(' ')}
              </dd>
            </>
          ) : null}
          <dt>Reply-to</dt>
          <dd>{campaign.reply_to ?? '—'}</dd>
          <dt>Scheduled</dt>
          <dd>{dateTime(campaign.scheduled_at)}</dd>
          <dt>Sent</dt>
          <dd>{dateTime(campaign.sent_at)}</dd>
          <dt>Created</dt>
          <dd>{dateTime(campaign.created_at)}</dd>
        </dl>
      </section>
      {analytics ? <Analytics analytics={analytics} campaign={campaign} /> : null}
      {campaign.status !== 'draft' ? <Recipients campaign={campaign} version={version} /> : null}
      {move ? (
        <ConfirmDialog
          open
          title={MOVES[move].title}
          confirmLabel={MOVES[move].confirm}
          kind={MOVES[move].kind}
          onClose={() => setMove(null)}
          onConfirm={async () => done(...(await makeMove(move, id)))}
        >
          <MoveText move={move} segment={segment} />
        </ConfirmDialog>
      ) : null}
      <Dialog title="Schedule the campaign" open={scheduling} onClose={() => setScheduling(false)}>
        <ScheduleForm
          campaign={campaign}
          onCancel={() => setScheduling(false)}
          onDone={(message, next) => {
            setScheduling(false);
            done(message, next);
          }}
        />
      </Dialog>
    </>
  );
}
