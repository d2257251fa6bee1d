import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';

/**
 * Revenue by period as bars with the cumulative as a line on its own axis (uPlot). The numbers are
 * also given as a table for screen readers and for reading exact values.
 */
export function RevenueChart(props: {
  labels: string[];
  revenue: number[];
  cumulative: number[];
  format: (value: number) => string;
  title: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const xs = props.labels.map((_, i) => i);
    const bars = uPlot.paths.bars!({ size: [0.6, 60] });
    const chart = new uPlot(
      {
        width: Math.max(320, element.clientWidth),
        height: 260,
        legend: { show: true },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: false }, revenue: { auto: true }, cumulative: { auto: true } },
        axes: [
          {
            values: (_u, splits) => splits.map((i) => props.labels[i]?.replace(/ \d{4}$/, '') ?? ''),
            gap: 6,
          },
          { scale: 'revenue', values: (_u, splits) => splits.map((v) => props.format(v)), size: 90 },
          {
            scale: 'cumulative',
            side: 1,
            grid: { show: false },
            values: (_u, splits) => splits.map((v) => props.format(v)),
            size: 90,
          },
        ],
        series: [
          { label: 'Month', value: (_u, i) => (i === null ? '' : (props.labels[i] ?? '')) },
          {
            label: 'Revenue',
            scale: 'revenue',
            fill: 'rgba(31, 78, 121, 0.55)',
            stroke: '#1f4e79',
            paths: bars,
            points: { show: false },
            value: (_u, v) => (v === null ? '—' : props.format(v)),
          },
          {
            label: 'Cumulative',
            scale: 'cumulative',
            stroke: '#b35c00',
            width: 2,
            value: (_u, v) => (v === null ? '—' : props.format(v)),
          },
        ],
      },
      [xs, props.revenue, props.cumulative],
      element,
    );
    const resize = () => chart.setSize({ width: Math.max(320, element.clientWidth), height: 260 });
    addEventListener('resize', resize);
    return () => {
      removeEventListener('resize', resize);
      chart.destroy();
    };
  }, [props.labels, props.revenue, props.cumulative, props.format]);
  return (
    <figure class="chart">
      <div ref={host} role="img" aria-label={props.title} />
      <details>
        <summary>The figures</summary>
        <table>
          <caption class="visually-hidden">{props.title}</caption>
          <thead>
            <tr>
              <th scope="col">Period</th>
              <th scope="col" class="numeric">
                Revenue
              </th>
              <th scope="col" class="numeric">
                Cumulative
              </th>
            </tr>
          </thead>
          <tbody>
            {props.labels.map((label, i) => (
              <tr key={label}>
                <td>{label}</td>
                <td class="numeric">{props.format(props.revenue[i] ?? 0)}</td>
                <td class="numeric">{props.format(props.cumulative[i] ?? 0)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
