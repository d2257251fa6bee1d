import { unwrap } from '../../../client/index.js';
import { Empty, ErrorMessage, Link, Loading, PageHeader, Table } from '../../components/ui.js';
import { number, percent } from '../../lib/format.js';
import { useLoad } from '../../lib/forms.js';
import { api } from '../../lib/api.js';
import type { ScreenProps } from '../../lib/screen.js';
import { TierName } from './tier-name.js';

/** The program in numbers: members, points issued and redeemed, and how members spread over tiers. */

export default function Stats(_props: ScreenProps) {
  const load = useLoad(async () => (await unwrap(api.value.loyalty.stats.getStats())).data, []);
  if (load.error) {
    return (
      <>
        <PageHeader title="Loyalty stats" />
        <ErrorMessage message={load.error} onRetry={load.reload} />
      </>
    );
  }
  if (!load.data) return <Loading />;
  const s = load.data;
  const largest = Math.max(1, ...s.tierDistribution.map((t) => t.count));
  return (
    <>
      <PageHeader title="Loyalty stats" />
      <div class="tiles">
        <section class="tile" aria-labelledby="stats-members">
          <h2 id="stats-members">Members</h2>
          <p class="figure">{number(s.totalMembers)}</p>
          <p class="hint">{number(s.activeMembers)} active</p>
        </section>
        <section class="tile" aria-labelledby="stats-issued">
          <h2 id="stats-issued">Points issued</h2>
          <p class="figure">{number(s.totalPointsIssued)}</p>
        </section>
        <section class="tile" aria-labelledby="stats-redeemed">
          <h2 id="stats-redeemed">Points redeemed</h2>
          <p class="figure">{number(s.totalPointsRedeemed)}</p>
          <p class="hint">{percent(s.redemptionRate / 100)} of those issued</p>
        </section>
      </div>
      <section aria-labelledby="stats-tiers">
        <h2 id="stats-tiers">Members by tier</h2>
        {s.tierDistribution.length === 0 ? (
          <Empty title="No tiers">
            <p>
              <Link to="/loyalty/program">Add tiers to the program</Link> to see how members spread over them.
            </p>
          </Empty>
        ) : (
          <Table
            caption="Members by tier"
            rows={s.tierDistribution}
            rowKey={(t) => t.name}
            columns={[
              {
                label: 'Tier',
                render: (t) => <TierName name={t.name} color={t.color} />,
              },
              { label: 'Members', numeric: true, render: (t) => number(t.count) },
              {
                label: 'Share',
                render: (t) => (
                  <span class="share">
                    <meter
                      min={0}
                      max={largest}
                      value={t.count}
                      aria-label={`${t.name}: ${t.count} members`}
                    />{' '}
                    {percent(s.totalMembers ? t.count / s.totalMembers : 0)}
                  </span>
                ),
              },
            ]}
          />
        )}
      </section>
    </>
  );
}
