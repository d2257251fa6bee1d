import { useState } from 'preact/hooks';
import { marketing, unwrap } from '../../../client/index.js';
import { ConfirmButton } from '../../components/confirm.js';
import {
  Badge,
  Button,
  ErrorMessage,
  Field,
  Link,
  Notice,
  PageHeader,
  Select,
  TextArea,
} from '../../components/ui.js';
import { RecordUnavailable } from '../../components/record.js';
import { dateTime } from '../../lib/format.js';
import { useForm, useLoad } from '../../lib/forms.js';
import { FROM_EMAIL_HINT } from '../../lib/messages.js';
import { summaryOf } from '../../lib/refusals.js';
import { navigate } from '../../lib/router.js';
import { api, can } from '../../lib/api.js';
import { allowed } from '../../lib/session.js';
import type { ScreenProps } from '../../lib/screen.js';
import { CustomerPicker } from './customer-picker.js';

/**
 * One template: subject, sender and bodies edited with the merge tags at hand, the text part derived
 * from the HTML unless written, and a preview rendered for a chosen contact.
 */

type Template = marketing.Template;

const MERGE_TAGS: { tag: string; what: string }[] = [
  { tag: '{{first_name}}', what: 'First name' },
  { tag: '{{last_name}}', what: 'Last name' },
  { tag: '{{name}}', what: 'Full name' },
  { tag: '{{email}}', what: 'Email address' },
  { tag: '{{company}}', what: 'Company' },
  { tag: '{{attributes.plan}}', what: 'An attribute (here plan)' },
];

/**
 * The preview's HTML as plain elements: no scripts, styles, images or frames, no attributes but a
 * link's address, so it shows under the dashboard's CSP and fetches nothing.
 */
function sanitize(html: string): string {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  doc
    .querySelectorAll('script, style, link, meta, iframe, object, embed, form, base, svg')
    .forEach((e) => e.remove());
  doc.querySelectorAll('img').forEach((img) => {
    const alt = img.getAttribute('alt');
    img.replaceWith(doc.createTextNode(alt ? `[${alt}]` : ''));
  });
  doc.body.querySelectorAll('*').forEach((element) => {
    for (const attribute of [...element.attributes]) {
      const keep =
        element.tagName === 'A' && attribute.name === 'href' && /^https?:|^mailto:/i.test(attribute.value);
      if (!keep) element.removeAttribute(attribute.name);
    }
    if (element.tagName === 'A') {
      element.setAttribute('target', '_blank');
      element.setAttribute('rel', 'noopener noreferrer');
    }
  });
  return doc.body.innerHTML;
}

function Preview(props: { template: Template; version: number }) {
  const [customerId, setCustomerId] = useState('');
  const [preview, setPreview] = useState<marketing.Preview | null>(null);
  const form = useForm();
  const run = (e: Event) => {
    e.preventDefault();
    void form
      .submit(null, null, () =>
        unwrap(
          api.value.marketing.templates.previewTemplate({
            params: { id: props.template.id },
            body: customerId ? { customer_id: customerId } : {},
          }),
        ),
      )
      .then((answer) => {
        if (answer) setPreview(answer.preview);
      });
  };
  return (
    <section class="panel" aria-labelledby="template-preview">
      <h2 id="template-preview">Preview</h2>
      <form onSubmit={run} class="preview-form" noValidate>
        {allowed('customers.read') ? (
          <CustomerPicker
            label="Contact"
            value={customerId}
            onValue={setCustomerId}
            error={form.errors.customer_id}
          />
        ) : null}
        <p class="hint">
          Without a contact, the preview uses sample values. Save first: it renders the saved version.
        </p>
        <ErrorMessage message={summaryOf(form)} />
        <Button type="submit" kind="primary" busy={form.busy}>
          Preview
        </Button>
      </form>
      {preview ? (
        <div class="mail-preview" aria-live="polite">
          <dl class="facts">
            <dt>Subject</dt>
            <dd class="preview-subject">{preview.subject}</dd>
          </dl>
          <h3>HTML part</h3>
          <div class="mail-html" dangerouslySetInnerHTML={{ __html: sanitize(preview.html) }} />
          <p class="hint">Shown without its styles and images; mail clients get it with the CSS inlined.</p>
          <h3>Text part</h3>
          <pre class="mail-text">{preview.text}</pre>
        </div>
      ) : null}
    </section>
  );
}

function Editor(props: { template: Template; onSaved: (t: Template) => void }) {
  const t = props.template;
  const editable = can('updateTemplate');
  const [name, setName] = useState(t.name);
  const [subject, setSubject] = useState(t.subject);
  const [fromName, setFromName] = useState(t.from_name ?? '');
  const [fromEmail, setFromEmail] = useState(t.from_email ?? '');
  const [status, setStatus] = useState<Template['status']>(t.status);
  const [html, setHtml] = useState(t.html_body);
  const [derive, setDerive] = useState(t.text_body_derived);
  const [text, setText] = useState(t.text_body);
  const [saved, setSaved] = useState(false);
  const form = useForm();
  /** Puts a merge tag where the caret is in the HTML body (at its end when it was never focused). */
  const insert = (tag: string) => {
    const area = document.querySelector<HTMLTextAreaElement>('.template-editor textarea[name="html_body"]');
    const start = area?.selectionStart ?? html.length;
    const end = area?.selectionEnd ?? html.length;
    setHtml(html.slice(0, start) + tag + html.slice(end));
    setSaved(false);
    requestAnimationFrame(() => {
      area?.focus();
      area?.setSelectionRange(start + tag.length, start + tag.length);
    });
  };
  const save = (e: Event) => {
    e.preventDefault();
    setSaved(false);
    void form
      .submit(
        marketing.UpdateTemplateBodySchema,
        {
          name,
          subject,
          status,
          html_body: html,
          text_body: derive ? null : text,
          from_name: fromName.trim() || null,
          from_email: fromEmail.trim() || null,
        },
        (body) => unwrap(api.value.marketing.templates.updateTemplate({ params: { id: t.id }, body })),
      )
      .then((answer) => {
        if (!answer) return;
        setSaved(true);
        setText(answer.template.text_body);
        props.onSaved(answer.template);
      });
  };
  return (
    <form onSubmit={save} noValidate class="template-editor">
      <section class="panel" aria-labelledby="template-message">
        <h2 id="template-message">Message</h2>
        <div class="form-grid">
          <Field
            label="Name"
            name="name"
            value={name}
            onValue={setName}
            error={form.errors.name}
            readOnly={!editable}
          />
          <Select
            label="Status"
            name="status"
            value={status}
            options={marketing.TEMPLATE_STATUSES.map((s) => ({
              value: s,
              label: s[0]!.toUpperCase() + s.slice(1),
            }))}
            onValue={(v) => setStatus(v as Template['status'])}
            error={form.errors.status}
            disabled={!editable}
          />
          <Field
            label="From name"
            name="from_name"
            value={fromName}
            onValue={setFromName}
            error={form.errors.from_name}
            readOnly={!editable}
          />
          <Field
            label="From email"
            name="from_email"
            type="email"
            value={fromEmail}
            onValue={setFromEmail}
            error={form.errors.from_email}
            hint={FROM_EMAIL_HINT.template}
            readOnly={!editable}
          />
        </div>
        <Field
          label="Subject"
          name="subject"
          value={subject}
          onValue={setSubject}
          error={form.errors.subject}
          readOnly={!editable}
        />
        <div class="editor-columns">
          <div>
            <TextArea
              label="HTML body"
              name="html_body"
              rows={14}
              value={html}
              onValue={(v) => {
                setHtml(v);
                setSaved(false);
              }}
              error={form.errors.html_body}
            />
          </div>
          <div class="merge-tags">
            <h3 id="merge-tags">Merge tags</h3>
            <p class="hint">
              Replaced for each contact, HTML-escaped; an unknown tag renders empty. Insert puts one where the
              cursor is in the HTML body.
            </p>
            <ul class="plain-list">
              {MERGE_TAGS.map((m) => (
                <li key={m.tag}>
                  <code>{m.tag}</code> <span class="muted">{m.what}</span>{' '}
                  {editable ? (
                    <Button class="button secondary small" onClick={() => insert(m.tag)}>
                      Insert<span class="visually-hidden"> {m.tag} into the HTML body</span>
                    </Button>
                  ) : null}
                </li>
              ))}
            </ul>
          </div>
        </div>
        <label class="checkbox">
          <input
            type="checkbox"
            name="derive_text"
            checked={derive}
            disabled={!editable}
            onChange={(e) => setDerive(e.currentTarget.checked)}
          />
          Derive the text part from the HTML
        </label>
        {derive ? (
          <div class="derived">
            <h3>Text part (derived)</h3>
            <pre class="mail-text">
              {t.text_body_derived ? t.text_body : 'Derived from the HTML when saved.'}
            </pre>
          </div>
        ) : (
          <TextArea
            label="Text part"
            name="text_body"
            rows={8}
            value={text}
            onValue={setText}
            error={form.errors.text_body}
          />
        )}
        {saved ? <Notice kind="success">Template saved.</Notice> : null}
        <ErrorMessage message={summaryOf(form)} />
        {editable ? (
          <div class="form-actions">
            <Button type="submit" kind="primary" busy={form.busy}>
              Save template
            </Button>
          </div>
        ) : null}
      </section>
    </form>
  );
}

export default function TemplateScreen({ params }: ScreenProps) {
  const id = params.id!;
  const load = useLoad(() => unwrap(api.value.marketing.templates.getTemplate({ params: { id } })), [id]);
  const [current, setCurrent] = useState<Template | null>(null);
  const [version, setVersion] = useState(0);
  if (load.error || !load.data) {
    return (
      <RecordUnavailable
        title="Template"
        load={load}
        list={{ to: '/marketing/templates', name: 'Templates' }}
      />
    );
  }
  const template = current?.id === id ? current : load.data.template;
  return (
    <>
      <p class="breadcrumb">
        <Link to="/marketing/templates">Templates</Link>
      </p>
      <PageHeader title={template.name}>
        {can('deleteTemplate') ? (
          <ConfirmButton
            label="Delete"
            title={`Delete ${template.name}?`}
            confirmLabel="Delete template"
            onConfirm={async () => {
              await unwrap(api.value.marketing.templates.deleteTemplate({ params: { id } }));
              navigate('/marketing/templates');
            }}
          >
            <p>A template used by a scheduled, sending or paused campaign cannot be deleted.</p>
          </ConfirmButton>
        ) : null}
      </PageHeader>
      <p class="status-line">
        <Badge value={template.status} /> Last changed {dateTime(template.updated_at)}.
      </p>
      <Editor
        key={template.id}
        template={template}
        onSaved={(t) => {
          setCurrent(t);
          setVersion((v) => v + 1);
        }}
      />
      {can('previewTemplate') ? <Preview template={template} version={version} /> : null}
    </>
  );
}
