import { useState } from 'preact/hooks';
import { contract, marketing, unwrap } from '../../../client/index.js';
import { ExportButton } from '../../components/csv.js';
import {
  Badge,
  Button,
  Dialog,
  ErrorMessage,
  Field,
  Link,
  PageHeader,
  Table,
  TextArea,
} from '../../components/ui.js';
import { dateTime } from '../../lib/format.js';
import { useForm, useLoad } from '../../lib/forms.js';
import { FROM_EMAIL_HINT } from '../../lib/messages.js';
import { oneOf, pageOf, pageQuery } from '../../lib/lists.js';
import { summaryOf } from '../../lib/refusals.js';
import { here, navigate } from '../../lib/router.js';
import { api, can } from '../../lib/session.js';
import type { ScreenProps } from '../../lib/screen.js';
import { StatusTabs } from '../../components/status-tabs.js';
import { PagedList } from '../../components/paged-list.js';

/** Email templates: by status, paged from the URL; a new one started here and edited on its page. */

const SIZE = 20;

const STARTER = '<p>Hello {{first_name}},</p>\n\n<p>…</p>\n\n<p>The team at {{company}}</p>';

function NewTemplate(props: { onCancel: () => void }) {
  const [name, setName] = useState('');
  const [subject, setSubject] = useState('');
  const [fromName, setFromName] = useState('');
  const [fromEmail, setFromEmail] = useState('');
  const [html, setHtml] = useState(STARTER);
  const form = useForm();
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void form
          .submit(
            marketing.CreateTemplateBodySchema,
            {
              name,
              subject,
              html_body: html,
              from_name: fromName.trim() || undefined,
              from_email: fromEmail.trim() || undefined,
            },
            (body) => unwrap(api.value.marketing.templates.createTemplate({ body })),
          )
          .then((created) => {
            if (created) navigate(`/marketing/templates/${created.template_id}`);
          });
      }}
    >
      <Field label="Name" name="name" value={name} onValue={setName} error={form.errors.name} required />
      <Field
        label="Subject"
        name="subject"
        value={subject}
        onValue={setSubject}
        error={form.errors.subject}
        hint="Merge tags work here too: Hello {{first_name}}"
        required
      />
      <div class="form-grid">
        <Field
          label="From name"
          name="from_name"
          value={fromName}
          onValue={setFromName}
          error={form.errors.from_name}
        />
        <Field
          label="From email"
          name="from_email"
          type="email"
          value={fromEmail}
          onValue={setFromEmail}
          error={form.errors.from_email}
          hint={FROM_EMAIL_HINT.template}
        />
      </div>
      <TextArea
        label="HTML body"
        name="html_body"
        rows={8}
        value={html}
        onValue={setHtml}
        error={form.errors.html_body}
      />
      <ErrorMessage message={summaryOf(form)} />
      <div class="dialog-actions">
        <Button onClick={props.onCancel}>Cancel</Button>
        <Button type="submit" kind="primary" busy={form.busy}>
          Create template
        </Button>
      </div>
    </form>
  );
}

export default function Templates(_props: ScreenProps) {
  const query = here.value.query;
  const page = pageOf(query);
  const status = oneOf(query, 'status', marketing.TEMPLATE_STATUSES);
  const [creating, setCreating] = useState(false);
  const list = useLoad(
    () =>
      unwrap(api.value.marketing.templates.listTemplates({ query: { status, ...pageQuery(page, SIZE) } })),
    [page, status],
  );
  return (
    <>
      <PageHeader title="Templates">
        <ExportButton route={contract.marketing.templates.listTemplates} query={{ status }} />
        {can('createTemplate') ? (
          <Button kind="primary" onClick={() => setCreating(true)}>
            New template
          </Button>
        ) : null}
      </PageHeader>
      <p class="lead">
        The emails campaigns send: a subject and an HTML body with merge tags for each contact.
      </p>
      <StatusTabs label="Template status" values={marketing.TEMPLATE_STATUSES} current={status} />
      <PagedList
        error={list.error}
        reload={list.reload}
        data={list.data && { rows: list.data.templates, total: list.data.total_count }}
        page={page}
        size={SIZE}
        filtered={{
          active: !!status,
          title: `No ${status} templates`,
          clear: ['status'],
          show: 'Show every template',
        }}
        empty={{
          title: 'No templates yet',
          children: (
            <p>
              {can('createTemplate')
                ? 'Write the first email with New template; a campaign sends one template to one segment.'
                : 'Templates appear here once someone with marketing permissions writes one.'}
            </p>
          ),
        }}
      >
        {(rows) => (
          <Table
            caption="Templates"
            rows={rows}
            rowKey={(t) => t.id}
            columns={[
              { label: 'Name', render: (t) => <Link to={`/marketing/templates/${t.id}`}>{t.name}</Link> },
              { label: 'Subject', render: (t) => t.subject },
              {
                label: 'From',
                render: (t) =>
                  t.from_email
                    ? `${t.from_name ? `${t.from_name} ` : ''}<${t.from_email}>`
                    : 'The default sender',
              },
              { label: 'Status', render: (t) => <Badge value={t.status} /> },
              { label: 'Changed', render: (t) => dateTime(t.updated_at) },
            ]}
          />
        )}
      </PagedList>
      <Dialog title="New template" open={creating} onClose={() => setCreating(false)}>
        <NewTemplate onCancel={() => setCreating(false)} />
      </Dialog>
    </>
  );
}
