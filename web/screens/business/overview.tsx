import { useMemo } from 'preact/hooks';
import { unwrap, type finance, type general, type loyalty, type marketing } from '../../../client/index.js';
import { RevenueChart } from '../../components/chart.js';
import { Badge, Empty, ErrorMessage, Link, Loading, PageHeader } from '../../components/ui.js';
import { useLoad, type Load } from '../../lib/forms.js';
import { date, minorMoney, money, monthStart, number, percent, today } from '../../lib/format.js';
import { NOT_WITHIN_HORIZON, withinHorizon } from '../../lib/messages.js';
import { api } from '../../lib/api.js';
import { allowed, session } from '../../lib/session.js';

/**
 * The business at a glance: revenue by month with its cumulative line and the VAT threshold (the
 * sales schedule), loyalty, the latest invoices and bills, the last campaign. Each tile loads on its
 * own and is shown only to roles that may read it.
 */

function Tile(props: {
  title: string;
  to?: string;
  linkLabel?: string;
  wide?: boolean;
  load: Load<unknown>;
  children: () => preact.ComponentChildren;
}) {
  const headingId = `tile-${props.title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return (
    <section class={`tile${props.wide ? ' wide' : ''}`} aria-labelledby={headingId}>
      <h2 id={headingId}>{props.title}</h2>
      {props.load.error ? (
        <ErrorMessage message={props.load.error} onRetry={props.load.reload} />
      ) : props.load.data === undefined ? (
        <Loading />
      ) : (
        props.children()
      )}
      {props.to ? (
        <p class="tile-link">
          <Link to={props.to}>{props.linkLabel ?? `Open ${props.title.toLowerCase()}`}</Link>
        </p>
      ) : null}
    </section>
  );
}

function Revenue(props: { load: Load<finance.SalesSchedule> }) {
  const data = props.load.data;
  const currency = data?.summary.currency ?? 'USD';
  const series = useMemo(
    () => ({
      periods: data?.periods.map((p) => p.period) ?? [],
      revenue: data?.periods.map((p) => p.revenue) ?? [],
      cumulative: data?.periods.map((p) => p.cumulative) ?? [],
    }),
    [data],
  );
  return (
    <Tile title="Revenue by month" wide load={props.load} to="/invoices" linkLabel="Open invoices">
      {() =>
        data!.summary.totalInvoices === 0 ? (
          <Empty title="No revenue in the last 12 months yet">
            <p>
              Issued invoices count here by their issue date.{' '}
              <Link to="/invoices/new">Create an invoice</Link>.
            </p>
          </Empty>
        ) : (
          <>
            <p>
              <span class="figure">{minorMoney(data!.summary.totalRevenue, currency)}</span> net over the last
              12 months, from {number(data!.summary.totalInvoices)}{' '}
              {data!.summary.totalInvoices === 1 ? 'invoice' : 'invoices'}.
            </p>
            <RevenueChart
              title="Net revenue by month and cumulative, last 12 months"
              currency={currency}
              periodName="Month"
              {...series}
            />
          </>
        )
      }
    </Tile>
  );
}

function Vat(props: { load: Load<finance.SalesSchedule> }) {
  return (
    <Tile title="VAT threshold" load={props.load} to="/finance/vat" linkLabel="Open the VAT threshold">
      {() => {
        const vat = props.load.data!.vatThreshold;
        const currency = props.load.data!.summary.currency;
        if (!vat.configured) {
          return (
            <p>
              No threshold is set up. Set one up on the VAT threshold page to follow the revenue that counts
              towards VAT registration.
            </p>
          );
        }
        const reached = Math.min(100, Math.max(0, vat.percentageReached));
        return (
          <>
            {vat.registered ? (
              <p>Registered{vat.registrationNumber ? ` (${vat.registrationNumber})` : ''}.</p>
            ) : null}
            <div
              class="progress"
              role="progressbar"
              aria-label="Share of the VAT threshold reached"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(reached)}
            >
              <span style={{ width: `${reached}%` }} />
            </div>
            <dl class="facts">
              <dt>Revenue of the window</dt>
              <dd>{minorMoney(vat.currentRevenue, currency)}</dd>
              <dt>Threshold</dt>
              <dd>{minorMoney(vat.thresholdAmount, currency)}</dd>
              <dt>Reached</dt>
              <dd>{percent(vat.percentageReached / 100)}</dd>
              <dt>Projected crossing</dt>
              <dd>
                {withinHorizon(vat.projectedCrossingDate, today())
                  ? date(vat.projectedCrossingDate)
                  : vat.projectedCrossingDate
                    ? NOT_WITHIN_HORIZON
                    : 'Not at the current pace'}
              </dd>
            </dl>
          </>
        );
      }}
    </Tile>
  );
}

function Loyalty(props: { load: Load<loyalty.Stats> }) {
  return (
    <Tile title="Loyalty" load={props.load} to="/loyalty/stats" linkLabel="Loyalty stats">
      {() => {
        const stats = props.load.data!;
        return (
          <dl class="facts">
            <dt>Members</dt>
            <dd>{number(stats.totalMembers)}</dd>
            <dt>Active</dt>
            <dd>{number(stats.activeMembers)}</dd>
            <dt>Points issued</dt>
            <dd>{number(stats.totalPointsIssued)}</dd>
            <dt>Points redeemed</dt>
            <dd>{number(stats.totalPointsRedeemed)}</dd>
            <dt>Redemption rate</dt>
            <dd>{percent(stats.redemptionRate / 100)}</dd>
          </dl>
        );
      }}
    </Tile>
  );
}

function LatestInvoices(props: { load: Load<general.Invoice[]> }) {
  return (
    <Tile title="Latest invoices" load={props.load} to="/invoices" linkLabel="All invoices">
      {() =>
        props.load.data!.length === 0 ? (
          <p>
            No invoices yet. <Link to="/invoices/new">Create the first one</Link>.
          </p>
        ) : (
          <ul class="plain-list">
            {props.load.data!.map((invoice) => (
              <li key={invoice.id}>
                <Link to={`/invoices/${invoice.id}`}>{invoice.number}</Link> {invoice.customer.name}{' '}
                <span class="numeric">{money(invoice.total, invoice.currency)}</span>{' '}
                <Badge value={invoice.status} />
              </li>
            ))}
          </ul>
        )
      }
    </Tile>
  );
}

function LatestBills(props: { load: Load<finance.BillSummary[]> }) {
  return (
    <Tile title="Latest bills" load={props.load} to="/finance/bills" linkLabel="All bills">
      {() =>
        props.load.data!.length === 0 ? (
          <p>No bills recorded yet.</p>
        ) : (
          <ul class="plain-list">
            {props.load.data!.map((bill) => (
              <li key={bill.id}>
                {bill.vendor_name} <span class="numeric">{minorMoney(bill.amount, bill.currency)}</span> due{' '}
                {date(bill.due_date)} <Badge value={bill.status} />
              </li>
            ))}
          </ul>
        )
      }
    </Tile>
  );
}

type LastCampaign = { campaign: marketing.Campaign; analytics: marketing.Analytics | null } | null;

function Campaign(props: { load: Load<LastCampaign> }) {
  return (
    <Tile title="Last campaign" load={props.load} to="/marketing/campaigns" linkLabel="All campaigns">
      {() => {
        const last = props.load.data;
        if (!last) return <p>No campaign yet.</p>;
        const a = last.analytics;
        return (
          <>
            <p>
              <strong>{last.campaign.name}</strong> <Badge value={last.campaign.status} />
            </p>
            {a ? (
              <dl class="facts">
                <dt>Recipients</dt>
                <dd>{number(a.recipients)}</dd>
                <dt>Delivered</dt>
                <dd>{number(a.delivered)}</dd>
                <dt>Open rate</dt>
                <dd>{percent(a.open_rate / 100)}</dd>
                <dt>Click rate</dt>
                <dd>{percent(a.click_rate / 100)}</dd>
                <dt>Bounce rate</dt>
                <dd>{percent(a.bounce_rate / 100)}</dd>
              </dl>
            ) : (
              <p>Not sent yet.</p>
            )}
          </>
        );
      }}
    </Tile>
  );
}

export default function Overview() {
  const client = api.value;
  const environment = session.value?.environment;
  const canFinance = allowed('finance.read');
  const canSales = allowed('sales.read');
  const canLoyalty = allowed('loyalty.read');
  const canMarketing = allowed('marketing.read');

  const schedule = useLoad(
    async () =>
      canFinance
        ? (
            await unwrap(
              client.finance.reports.getSalesSchedule({
                query: { startDate: monthStart(11), endDate: today(), groupBy: 'month', limit: 1 },
              }),
            )
          ).data
        : undefined,
    [client],
  );
  const invoices = useLoad(
    async () =>
      canSales ? (await unwrap(client.general.invoices.listInvoices({ query: { limit: 5 } }))).data : [],
    [client],
  );
  const bills = useLoad(
    async () =>
      canFinance ? (await unwrap(client.finance.bills.listBills({ query: { limit: 5 } }))).bills : [],
    [client],
  );
  const stats = useLoad(
    async () => (canLoyalty ? (await unwrap(client.loyalty.stats.getStats())).data : undefined),
    [client],
  );
  const campaign = useLoad<LastCampaign>(async () => {
    if (!canMarketing) return null;
    const { campaigns } = await unwrap(client.marketing.campaigns.listCampaigns({ query: { limit: 10 } }));
    const last = campaigns.find((c) => c.sent_at !== null || c.status === 'sending') ?? campaigns[0];
    if (!last) return null;
    const started = last.status !== 'draft' && last.status !== 'scheduled';
    const analytics = started
      ? (await unwrap(client.marketing.campaigns.getCampaignAnalytics({ params: { id: last.id } }))).analytics
      : null;
    return { campaign: last, analytics };
  }, [client]);

  return (
    <>
      <PageHeader title="Overview">
        <span class="hint">{environment === 'sandbox' ? 'Sandbox data' : 'Live data'}</span>
      </PageHeader>
      <div class="tiles">
        {canFinance ? <Revenue load={schedule as Load<finance.SalesSchedule>} /> : null}
        {canFinance ? <Vat load={schedule as Load<finance.SalesSchedule>} /> : null}
        {canLoyalty ? <Loyalty load={stats as Load<loyalty.Stats>} /> : null}
        {canSales ? <LatestInvoices load={invoices} /> : null}
        {canFinance ? <LatestBills load={bills} /> : null}
        {canMarketing ? <Campaign load={campaign} /> : null}
      </div>
    </>
  );
}
