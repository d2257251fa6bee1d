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
import { pageOf } from '../../lib/lists.js';
import { here, href, withQuery } from '../../lib/router.js';
import { api, can, inSandbox } from '../../lib/session.js';

/**
 * Captured mail: what the sandbox would have sent (campaigns, reminders, VAT alerts, webhook
 * notices), newest first, and the message chosen in the URL (`?message=`) shown beside the list. The
 * HTML part is shown as its source, never rendered: it could load images or run nothing the page's
 * CSP allows, and the text part says the same.
 */

const LIMIT = 20;

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
      <h3>Text</h3>
      <pre class="mail-text" tabIndex={0} role="region" aria-label="Text of the message">
        {m.text || '(empty)'}
      </pre>
      {m.html ? (
        <details class="group">
          <summary>HTML part (source)</summary>
          <pre class="mail-text" tabIndex={0} role="region" aria-label="HTML source of the message">
            {m.html}
          </pre>
        </details>
      ) : (
        <p class="muted">Plain text only: this message has no HTML part.</p>
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

export default function Inbox() {
  const query = here.value.query;
  const page = pageOf(query);
  const chosen = query.get('message') || undefined;
  const list = useLoad(
    () =>
      unwrap(
        api.value.sandbox.messages.listMessages({ query: { limit: LIMIT, offset: (page - 1) * LIMIT } }),
      ),
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
      <p class="lead">
        {inSandbox.value
          ? 'Mail the sandbox sends is captured here instead of being delivered, so a campaign or a reminder can be tested end to end without mailing a real person.'
          : 'No SMTP server is configured, so the live business’s mail is captured here too instead of being delivered.'}
      </p>
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
              totalPages={Math.max(1, Math.ceil(list.data.total_count / LIMIT))}
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
              <p>Choose a message to read its text, HTML source and headers.</p>
            </div>
          )}
        </div>
      )}
    </>
  );
}
