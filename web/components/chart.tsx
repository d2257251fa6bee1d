import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { minorMoney, periodLabel } from '../lib/format.js';

/** Multiples tried for a scale's top, so its ticks land on round amounts. */
const NICE = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10];

/** The smallest nice number (NICE × 10^n) not below `value`; 0 for anything not above 0. */
function niceCeil(value: number): number {
  if (value <= 0) return 0;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  return (NICE.find((m) => m * magnitude >= value) ?? 10) * magnitude;
}

/**
 * A range for each series that includes 0, with 0 at the same height on every axis: bars measured
 * from anywhere but 0 misstate their size, and two axes with different baselines make the line and
 * the bars look related where they are not (docs/decisions.md D194).
 */
export function zeroAlignedRanges(series: readonly (readonly number[])[]): [number, number][] {
  const spans = series.map(([...values]): [number, number] => {
    const hi = niceCeil(Math.max(0, ...values));
    const lo = -niceCeil(Math.max(0, ...values.map((v) => -v)));
    return hi === 0 && lo === 0 ? [0, 1] : [lo, hi];
  });
  // The share of the height below 0 that the most negative series needs.
  let below = Math.max(0, ...spans.map(([lo, hi]) => -lo / (hi - lo)));
  if (below === 1 && spans.some(([, hi]) => hi > 0)) below = 0.5;
  if (below === 0 || below === 1) return spans;
  const ratio = below / (1 - below);
  return spans.map(([lo, hi]) => {
    const top = Math.max(hi, -lo / ratio);
    return [-ratio * top, top];
  });
}

/** Pixels an axis needs for its widest label. */
const axisSize = (_u: uPlot, values: string[] | null) =>
  values ? Math.max(48, ...values.map((v) => v.length * 7.5 + 18)) : 60;

/**
 * Revenue by period as bars, from 0, with the cumulative as a line on its own axis sharing that 0
 * (uPlot). Each period sits in its own slot, so the first and last bars are whole; periods are
 * labelled with their year; the legend shows the latest period until the cursor points at another,
 * and again when it leaves. The numbers are also given as a table for screen readers and for reading
 * exact values. The scales and tick labels drawn are left in `data-scales` and `data-ticks` on the plot, for
 * tests to read.
 */
export function RevenueChart(props: {
  /** Period keys as the reports give them: `2025-12`, `2026-Q1`, `2026`. */
  periods: string[];
  /** Minor units of `currency`. */
  revenue: number[];
  cumulative: number[];
  currency: string;
  title: string;
  /** What a period is, for the legend: Month, Quarter, Year. */
  periodName?: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const { periods, revenue, cumulative, currency } = props;
    const count = periods.length;
    const latest = count - 1;
    const xs = periods.map((_, i) => i);
    const money = (v: number) => minorMoney(Math.round(v), currency);
    const [revenueRange, cumulativeRange] = zeroAlignedRanges([revenue, cumulative]);
    const bars = uPlot.paths.bars!({ size: [0.6, 60] });
    /** The labels each axis drew last (uPlot draws them on the canvas), for `data-ticks`. */
    const ticks: Record<string, string[]> = {};
    const drawn = (key: string, labels: string[]) => (ticks[key] = labels);
    /** Whole minor units only: a tick between two cents would repeat its neighbour's label. */
    const moneyTicks = (key: string) => (_u: uPlot, splits: number[]) =>
      drawn(
        key,
        splits.map((v) => (Number.isInteger(v) ? money(v) : '')),
      );
    const chart = new uPlot(
      {
        width: Math.max(320, element.clientWidth),
        height: 260,
        legend: { show: true },
        cursor: { drag: { x: false, y: false } },
        scales: {
          // Half a slot either side of the first and last period, so their bars are drawn whole.
          x: { time: false, range: () => [-0.5, Math.max(0, latest) + 0.5] },
          revenue: { range: () => revenueRange! },
          cumulative: { range: () => cumulativeRange! },
        },
        axes: [
          {
            // Periods only, anchored on the latest, thinned to what the width holds.
            splits: (u) => {
              const every = Math.max(1, Math.ceil((count * 76) / Math.max(1, u.bbox.width / uPlot.pxRatio)));
              return xs.filter((i) => (latest - i) % every === 0);
            },
            values: (_u, splits) =>
              drawn(
                'x',
                splits.map((i) => (periods[i] ? periodLabel(periods[i]) : '')),
              ),
            gap: 6,
          },
          { scale: 'revenue', values: moneyTicks('revenue'), size: axisSize },
          {
            scale: 'cumulative',
            side: 1,
            grid: { show: false },
            values: moneyTicks('cumulative'),
            size: axisSize,
          },
        ],
        series: [
          {
            label: props.periodName ?? 'Period',
            value: (_u, _v, _s, idx) => {
              const period = periods[idx ?? latest];
              return period ? periodLabel(period) : '—';
            },
          },
          {
            label: 'Revenue',
            scale: 'revenue',
            fill: 'rgba(31, 78, 121, 0.55)',
            stroke: '#1f4e79',
            paths: bars,
            points: { show: false },
            value: (_u, _v, _s, idx) => {
              const v = revenue[idx ?? latest];
              return v === undefined ? '—' : money(v);
            },
          },
          {
            label: 'Cumulative',
            scale: 'cumulative',
            stroke: '#b35c00',
            width: 2,
            value: (_u, _v, _s, idx) => {
              const v = cumulative[idx ?? latest];
              return v === undefined ? '—' : money(v);
            },
          },
        ],
        hooks: {
          draw: [
            (u) => {
              const range = (key: string) => [u.scales[key]?.min ?? null, u.scales[key]?.max ?? null];
              element.dataset.scales = JSON.stringify({
                x: range('x'),
                revenue: range('revenue'),
                cumulative: range('cumulative'),
              });
              element.dataset.ticks = JSON.stringify(ticks);
            },
          ],
        },
      },
      [xs, revenue, cumulative],
      element,
    );
    const resize = () => chart.setSize({ width: Math.max(320, element.clientWidth), height: 260 });
    addEventListener('resize', resize);
    return () => {
      removeEventListener('resize', resize);
      chart.destroy();
    };
  }, [props.periods, props.revenue, props.cumulative, props.currency, props.periodName]);
  return (
    <figure class="chart">
      <div ref={host} role="img" aria-label={props.title} />
      <details>
        <summary>The figures</summary>
        <table>
          <caption class="visually-hidden">{props.title}</caption>
          <thead>
            <tr>
              <th scope="col">{props.periodName ?? 'Period'}</th>
              <th scope="col" class="numeric">
                Revenue
              </th>
              <th scope="col" class="numeric">
                Cumulative
              </th>
            </tr>
          </thead>
          <tbody>
            {props.periods.map((period, i) => (
              <tr key={period}>
                <td>{periodLabel(period, 'long')}</td>
                <td class="numeric">{minorMoney(props.revenue[i] ?? 0, props.currency)}</td>
                <td class="numeric">{minorMoney(props.cumulative[i] ?? 0, props.currency)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
