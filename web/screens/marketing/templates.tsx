import { useState } from 'preact/hooks';
import { contract, marketing, unwrap } from '../../../client/index.js';
import { DialogForm } from '../../components/form-dialog.js';
import { ListPage } from '../../components/list-page.js';
import { Badge, Field, Link, TextArea } from '../../components/ui.js';
import { dateTime } from '../../lib/format.js';
import { useForm } from '../../lib/forms.js';
import { usePagedList } from '../../lib/list-query.js';
import { oneOf } from '../../lib/lists.js';
import { FROM_EMAIL_HINT } from '../../lib/messages.js';
import { here, navigate } from '../../lib/router.js';
import type { ScreenProps } from '../../lib/screen.js';
import { api } from '../../lib/api.js';

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
    <DialogForm
      form={form}
      submit="Create template"
      onCancel={props.onCancel}
      onSubmit={() => {
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
    </DialogForm>
  );
}

export default function Templates(_props: ScreenProps) {
  const status = oneOf(here.value.query, 'status', marketing.TEMPLATE_STATUSES);
  const list = usePagedList(
    SIZE,
    (paging) => api.value.marketing.templates.listTemplates({ query: { status, ...paging } }),
    (answer) => ({ rows: answer.templates, total: answer.total_count }),
    [status],
  );
  return (
    <ListPage
      title="Templates"
      export={{ route: contract.marketing.templates.listTemplates, query: { status } }}
      create={{
        operation: 'createTemplate',
        label: 'New template',
        form: (close) => <NewTemplate onCancel={close} />,
      }}
      lead="The emails campaigns send: a subject and an HTML body with merge tags for each contact."
      tabs={{ label: 'Template status', values: marketing.TEMPLATE_STATUSES, current: status }}
      list={list}
      filtered={{
        active: !!status,
        title: `No ${status} templates`,
        clear: ['status'],
        show: 'Show every template',
      }}
      empty={{
        title: 'No templates yet',
        canAdd: 'Write the first email with New template; a campaign sends one template to one segment.',
        cannotAdd: 'Templates appear here once someone with marketing permissions writes one.',
      }}
      table={{
        caption: 'Templates',
        rowKey: (t) => t.id,
        columns: [
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
        ],
      }}
    />
  );
}
