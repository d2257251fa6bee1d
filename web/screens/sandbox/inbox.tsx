import { Fragment } from 'preact';
import { contract, sandbox, unwrap } from '../../../client/index.js';
import { ExportButton } from '../../components/csv.js';
import {
  Button,
  Empty,
  ErrorMessage,
  Link,
  Loading,
  Notice,
  PageHeader,
  Pager,
} from '../../components/ui.js';
import { dateTime, number } from '../../lib/format.js';
import { useLoad } from '../../lib/forms.js';
import { pageOf, pageQuery, pagesOf } from '../../lib/lists.js';
import { here, href, withQuery } from '../../lib/router.js';
import { api, can } from '../../lib/api.js';
import { inSandbox, readsLiveMail, session } from '../../lib/session.js';

/**
 * Captured mail: what the sandbox would have sent (campaigns, reminders, VAT alerts, webhook
 * notices), newest first, and the message chosen in the URL (`?message=`) shown beside the list. A
 * live business without an SMTP server has its mail captured too: its owners and admins read it
 * here, under a banner saying that nothing leaves the machine.
 *
 * The HTML part is rendered in a frame with every sandbox restriction (no script, no form, no
 * navigation of the dashboard) from a copy that loads nothing: the dashboard's CSP, which the frame
 * inherits, would refuse inline styles and other origins anyway, and the service's own tracking pixel
 * and links would count an open or a click the recipient never made. Its source, the text part and
 * the headers stay readable below.
 */

const LIMIT = 20;

/** What nothing in a rendered message may keep: it would run, load or submit something. */
const INERT =
  'script, style, link, meta, base, iframe, frame, frameset, object, embed, applet, form, input, button, select, textarea, video, audio, source, track, picture, svg, math, noscript, template';

/**
 * The message's HTML as a document that loads nothing: what runs, loads or submits removed, styles
 * dropped (the CSP would refuse them), images other than `data:` shown as their alt text, links kept
 * as text with their address in a tooltip. Parsed by DOMParser, whose documents run and fetch nothing.
 */
export function inertHtml(html: string): string {
  // Styles go before parsing too: the parser's document inherits the dashboard's CSP, which logs
  // every inline style it refuses.
  const unstyled = html
    .replace(/<style\b[\s\S]*?<\/style\s*>/gi, '')
    .replace(/\sstyle\s*=\s*("[^"]*"|'[^']*'|[^\s>]+)/gi, '');
  const doc = new DOMParser().parseFromString(unstyled, 'text/html');
  for (const node of doc.querySelectorAll(INERT)) node.remove();
  for (const el of doc.body.querySelectorAll('*')) {
    for (const { name } of [...el.attributes]) {
      if (/^(on|style$|srcset$|background$|formaction$|xlink:href$|ping$)/i.test(name))
        el.removeAttribute(name);
    }
    if (el.tagName === 'IMG') {
      const src = el.getAttribute('src') ?? '';
      if (!src.startsWith('data:')) {
        const alt = el.getAttribute('alt')?.trim();
        el.replaceWith(alt ? doc.createTextNode(`[image: ${alt}]`) : doc.createTextNode(''));
      }
    } else if (el.tagName === 'A' && el.hasAttribute('href')) {
      el.setAttribute('title', el.getAttribute('href') ?? '');
      el.removeAttribute('href');
      el.removeAttribute('target');
      const underline = doc.createElement('u');
      underline.append(...el.childNodes);
      el.append(underline);
    }
  }
  return `<!doctype html><html><head><meta charset="utf-8"><title>Message</title></head><body>${doc.body.innerHTML}</body></html>`;
}

function MessageView(props: { message: sandbox.CapturedMessage }) {
  const m = props.message;
  const headers = Object.entries(m.headers);
  return (
    <article class="panel mail-view" aria-labelledby="mail-subject">
      <h2 id="mail-subject">{m.subject || '(no subject)'}</h2>
      <dl class="facts">
        <dt>From</dt>
        <dd>{m.from ?? 'The service (MAIL_FROM)'}</dd>
        <dt>To</dt>
        <dd>{m.to}</dd>
        {m.cc.length > 0 ? (
          <>
            <dt>Cc</dt>
            <dd>{m.cc.join(', ')}</dd>
          </>
        ) : null}
        {m.reply_to ? (
          <>
            <dt>Reply to</dt>
            <dd>{m.reply_to}</dd>
          </>
        ) : null}
        <dt>Captured</dt>
        <dd>{dateTime(m.created_at)}</dd>
        {m.attachments.length > 0 ? (
          <>
            <dt>Attached</dt>
            <dd>
              {m.attachments.map((a) => (
                <span key={a.filename} class="line">
                  {a.filename} ({a.content_type}, {number(Math.ceil(a.size / 1024))} KB)
                </span>
              ))}
            </dd>
          </>
        ) : null}
      </dl>
      {m.html ? (
        <>
          <h3>Message</h3>
          <iframe
            class="mail-frame"
            sandbox=""
            srcdoc={inertHtml(m.html)}
            title={`Message as its recipient sees it: ${m.subject || 'no subject'}`}
            referrerpolicy="no-referrer"
          />
          <p class="hint">
            Shown without styles, remote images or working links, so reading it here counts no open or click.
          </p>
          <details class="group">
            <summary>Text part</summary>
            <pre class="mail-text" tabIndex={0} role="region" aria-label="Text of the message">
              {m.text || '(empty)'}
            </pre>
          </details>
          <details class="group">
            <summary>HTML part (source)</summary>
            <pre class="mail-text" tabIndex={0} role="region" aria-label="HTML source of the message">
              {m.html}
            </pre>
          </details>
        </>
      ) : (
        <>
          <h3>Text</h3>
          <pre class="mail-text" tabIndex={0} role="region" aria-label="Text of the message">
            {m.text || '(empty)'}
          </pre>
          <p class="muted">Plain text only: this message has no HTML part.</p>
        </>
      )}
      {headers.length > 0 ? (
        <details class="group">
          <summary>Other headers ({headers.length})</summary>
          <dl class="facts mail-headers">
            {headers.map(([name, value]) => (
              <Fragment key={name}>
                <dt>
                  <code>{name}</code>
                </dt>
                <dd>
                  <code>{value}</code>
                </dd>
              </Fragment>
            ))}
          </dl>
        </details>
      ) : null}
    </article>
  );
}

/** Why a live credential has no inbox here: mail is really sent, or the role may not read it. */
function NoLiveInbox() {
  const info = session.value?.info;
  return (
    <>
      <PageHeader title="Captured mail" />
      {info?.mail === 'smtp' ? (
        <p class="lead">
          This business’s mail is sent through the SMTP server (SMTP_URL), so nothing is captured here. Open
          the sandbox to read the mail it captures.
        </p>
      ) : (
        <Notice kind="warning">
          Mail is not leaving this machine, and what is kept here carries invitation links: only owners and
          admins read it. Your role ({info?.role}) does not.
        </Notice>
      )}
    </>
  );
}

export default function Inbox() {
  if (!inSandbox.value && !readsLiveMail.value) return <NoLiveInbox />;
  return <Messages />;
}

function Messages() {
  const query = here.value.query;
  const page = pageOf(query);
  const chosen = query.get('message') || undefined;
  const list = useLoad(
    () => unwrap(api.value.sandbox.messages.listMessages({ query: pageQuery(page, LIMIT) })),
    [page],
  );
  const messages = list.data?.messages ?? [];
  const open = messages.find((m) => m.id === chosen);

  return (
    <>
      <PageHeader title="Captured mail">
        <ExportButton route={contract.sandbox.messages.listMessages} />
        <Button onClick={list.reload} busy={list.loading && Boolean(list.data)}>
          Refresh
        </Button>
      </PageHeader>
      {inSandbox.value ? (
        <p class="lead">
          Mail the sandbox sends is captured here instead of being delivered, so a campaign or a reminder can
          be tested end to end without mailing a real person.
        </p>
      ) : (
        <div class="message warning mail-banner" role="note">
          <strong>Mail is not leaving this machine:</strong> SMTP_URL is not set, so messages are kept here
          instead of being delivered: invoices, quotes, invitations, campaigns and notices alike. Set SMTP_URL
          for the service to send them.
        </div>
      )}
      {list.error ? (
        <ErrorMessage message={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading />
      ) : list.data.messages.length === 0 ? (
        page > 1 ? (
          <Empty title={`There is no page ${page}`}>
            <p>
              <Link to={withQuery({ page: null, message: null })}>Go to the first page</Link>.
            </p>
          </Empty>
        ) : (
          <Empty title="No mail captured yet">
            <p>
              Campaigns, loyalty reminders, VAT alerts and webhook notices land here once sent.
              {can('resetSandbox') ? (
                <>
                  {' '}
                  To see some now,{' '}
                  <Link to="/sandbox/controls">reset with demo data and advance the clock</Link>: the demo’s
                  scheduled campaign goes out within two weeks.
                </>
              ) : null}
            </p>
          </Empty>
        )
      ) : (
        <div class="mailbox">
          <div class="mail-list">
            <ul class="plain-list" aria-label="Messages, newest first">
              {list.data.messages.map((m) => (
                <li key={m.id}>
                  <a
                    href={href(withQuery({ message: m.id }))}
                    aria-current={m.id === chosen ? 'true' : undefined}
                    class="mail-item"
                  >
                    <strong class="mail-subject">{m.subject || '(no subject)'}</strong>
                    <span class="mail-meta">
                      To {m.to} · {dateTime(m.created_at)}
                    </span>
                  </a>
                </li>
              ))}
            </ul>
            <Pager
              page={page}
              total={list.data.total_count}
              totalPages={pagesOf(list.data.total_count, LIMIT)}
            />
          </div>
          {open ? (
            <MessageView message={open} />
          ) : chosen ? (
            <Notice kind="warning">
              That message is not on this page any more.{' '}
              <Link to={withQuery({ message: null })}>Close it</Link>.
            </Notice>
          ) : (
            <div class="panel mail-view muted">
              <p>Choose a message to read it, with its text part, HTML source and headers.</p>
            </div>
          )}
        </div>
      )}
    </>
  );
}
