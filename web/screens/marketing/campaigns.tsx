import { useState } from 'preact/hooks';
import { contract, marketing, unwrap } from '../../../client/index.js';
import { DialogForm } from '../../components/form-dialog.js';
import { ListPage } from '../../components/list-page.js';
import { Badge, ErrorMessage, Field, Link, Loading, Select } from '../../components/ui.js';
import { dateTime, number } from '../../lib/format.js';
import { useForm, useLoad } from '../../lib/forms.js';
import { usePagedList } from '../../lib/list-query.js';
import { oneOf } from '../../lib/lists.js';
import { FROM_EMAIL_HINT } from '../../lib/messages.js';
import { here, navigate } from '../../lib/router.js';
import type { ScreenProps } from '../../lib/screen.js';
import { api } from '../../lib/api.js';

/** Campaigns: by status, paged from the URL; a new draft made here of a template and a segment. */

const SIZE = 20;

function NewCampaign(props: { onCancel: () => void }) {
  const [name, setName] = useState('');
  const [templateId, setTemplateId] = useState('');
  const [segmentId, setSegmentId] = useState('');
  const [subject, setSubject] = useState('');
  const [fromName, setFromName] = useState('');
  const [fromEmail, setFromEmail] = useState('');
  const [replyTo, setReplyTo] = useState('');
  const form = useForm();
  const choices = useLoad(async () => {
    const [templates, segments] = await Promise.all([
      unwrap(api.value.marketing.templates.listTemplates({ query: { limit: 200 } })),
      unwrap(api.value.marketing.segments.listSegments({ query: { status: 'active', limit: 200 } })),
    ]);
    return {
      templates: templates.templates.filter((t) => t.status !== 'archived'),
      segments: segments.segments,
    };
  }, []);
  if (choices.error) return <ErrorMessage message={choices.error} onRetry={choices.reload} />;
  if (!choices.data) return <Loading />;
  const { templates, segments } = choices.data;
  const optional = (text: string) => text.trim() || undefined;
  return (
    <DialogForm
      form={form}
      submit="Create draft"
      onCancel={props.onCancel}
      onSubmit={() => {
        void form
          .submit(
            marketing.CreateCampaignBodySchema,
            {
              name,
              template_id: templateId,
              segment_id: segmentId,
              subject_override: optional(subject),
              from_name_override: optional(fromName),
              from_email_override: optional(fromEmail),
              reply_to: optional(replyTo),
            },
            (body) => unwrap(api.value.marketing.campaigns.createCampaign({ body })),
          )
          .then((created) => {
            if (created) navigate(`/marketing/campaigns/${created.campaign_id}`);
          });
      }}
    >
      <Field label="Name" name="name" value={name} onValue={setName} error={form.errors.name} required />
      <Select
        label="Template"
        name="template_id"
        value={templateId}
        options={[
          { value: '', label: templates.length ? 'Choose a template' : 'No template yet' },
          ...templates.map((t) => ({ value: t.id, label: `${t.name} (${t.status})` })),
        ]}
        onValue={setTemplateId}
        error={form.errors.template_id && (templateId ? form.errors.template_id : 'Choose a template')}
      />
      <Select
        label="Segment"
        name="segment_id"
        value={segmentId}
        options={[
          { value: '', label: segments.length ? 'Choose a segment' : 'No active segment yet' },
          ...segments.map((s) => ({ value: s.id, label: `${s.name} (${number(s.contact_count)} contacts)` })),
        ]}
        onValue={setSegmentId}
        error={form.errors.segment_id && (segmentId ? form.errors.segment_id : 'Choose an active segment')}
      />
      {templates.length === 0 || segments.length === 0 ? (
        <p class="hint">
          A campaign needs {templates.length === 0 ? <Link to="/marketing/templates">a template</Link> : null}
          {templates.length === 0 && segments.length === 0 ? ' and ' : null}
          {segments.length === 0 ? <Link to="/marketing/segments">an active segment</Link> : null}.
        </p>
      ) : null}
      <details class="group">
        <summary>Overrides (optional)</summary>
        <Field
          label="Subject"
          name="subject_override"
          value={subject}
          onValue={setSubject}
          error={form.errors.subject_override}
          hint="Instead of the template's"
        />
        <div class="form-grid">
          <Field
            label="From name"
            name="from_name_override"
            value={fromName}
            onValue={setFromName}
            error={form.errors.from_name_override}
          />
          <Field
            label="From email"
            name="from_email_override"
            type="email"
            value={fromEmail}
            onValue={setFromEmail}
            error={form.errors.from_email_override}
            hint={FROM_EMAIL_HINT.campaign}
          />
        </div>
        <Field
          label="Reply-to"
          name="reply_to"
          type="email"
          value={replyTo}
          onValue={setReplyTo}
          error={form.errors.reply_to}
        />
      </details>
    </DialogForm>
  );
}

export default function Campaigns(_props: ScreenProps) {
  const status = oneOf(here.value.query, 'status', marketing.CAMPAIGN_STATUSES);
  const list = usePagedList(
    SIZE,
    (paging) => api.value.marketing.campaigns.listCampaigns({ query: { status, ...paging } }),
    (answer) => ({ rows: answer.campaigns, total: answer.total_count }),
    [status],
  );
  return (
    <ListPage
      title="Campaigns"
      export={{ route: contract.marketing.campaigns.listCampaigns, query: { status } }}
      create={{
        operation: 'createCampaign',
        label: 'New campaign',
        form: (close) => <NewCampaign onCancel={close} />,
      }}
      tabs={{ label: 'Campaign status', values: marketing.CAMPAIGN_STATUSES, current: status }}
      list={list}
      filtered={{
        active: !!status,
        title: `No ${status} campaigns`,
        clear: ['status'],
        show: 'Show every campaign',
      }}
      empty={{
        title: 'No campaigns yet',
        canAdd:
          'Start one with New campaign: choose a template and a segment, check the draft, then send it or schedule it.',
        cannotAdd: 'Campaigns appear here once someone with marketing permissions creates one.',
      }}
      table={{
        caption: 'Campaigns',
        rowKey: (c) => c.id,
        columns: [
          { label: 'Name', render: (c) => <Link to={`/marketing/campaigns/${c.id}`}>{c.name}</Link> },
          { label: 'Status', render: (c) => <Badge value={c.status} /> },
          {
            label: 'Recipients',
            numeric: true,
            render: (c) => (c.recipients_count ? number(c.recipients_count) : '—'),
          },
          { label: 'Scheduled', render: (c) => dateTime(c.scheduled_at) },
          { label: 'Sent', render: (c) => dateTime(c.sent_at) },
          { label: 'Created', render: (c) => dateTime(c.created_at) },
        ],
      }}
    />
  );
}
