import { minorMoney } from '../lib/format.js';

/**
 * A waterfall: a starting total, the changes that follow it (each bar floats from where the one
 * before ended, up for a gain, down for a loss), and the total it ends at. Drawn as SVG that scales
 * with its box; the same figures stand beside it as a table, for screen readers and for reading exact
 * amounts.
 */

export interface WaterfallStep {
  label: string;
  /** Minor units: the total itself for a total, the change otherwise. */
  amount: number;
  total?: boolean;
}

const WIDTH = 600;
const HEIGHT = 260;
const TOP = 28;
const BOTTOM = 44;
const LEFT = 8;

interface Bar {
  step: WaterfallStep;
  from: number;
  to: number;
}

/** Each step's bar, from where it starts to where it ends, in minor units. */
export function waterfallBars(steps: WaterfallStep[]): Bar[] {
  let running = 0;
  return steps.map((step) => {
    if (step.total) {
      running = step.amount;
      return { step, from: 0, to: step.amount };
    }
    const from = running;
    running += step.amount;
    return { step, from, to: running };
  });
}

export function Waterfall(props: { title: string; steps: WaterfallStep[]; currency: string }) {
  const bars = waterfallBars(props.steps);
  const values = bars.flatMap((b) => [b.from, b.to]);
  const hi = Math.max(0, ...values);
  const lo = Math.min(0, ...values);
  const span = hi - lo || 1;
  const plot = HEIGHT - TOP - BOTTOM;
  const y = (v: number) => TOP + ((hi - v) / span) * plot;
  const slot = (WIDTH - LEFT * 2) / Math.max(1, bars.length);
  const barWidth = Math.min(64, slot * 0.62);
  const money = (v: number) => minorMoney(v, props.currency);
  const kind = (b: Bar) => (b.step.total ? 'total' : b.to >= b.from ? 'up' : 'down');
  return (
    <figure class="chart waterfall">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`${props.title}: the figures are in the table below`}
        data-bars={bars.length}
      >
        <line class="axis" x1={LEFT} x2={WIDTH - LEFT} y1={y(0)} y2={y(0)} />
        {bars.map((b, i) => {
          const x = LEFT + slot * i + (slot - barWidth) / 2;
          const top = y(Math.max(b.from, b.to));
          const height = Math.max(1, Math.abs(y(b.from) - y(b.to)));
          const next = bars[i + 1];
          const shown = b.step.total ? b.to : b.to - b.from;
          return (
            <g key={b.step.label} class={`bar ${kind(b)}`} data-step={b.step.label}>
              <rect x={x} y={top} width={barWidth} height={height} rx={2} />
              {next && !next.step.total ? (
                <line class="connector" x1={x + barWidth} x2={x + slot} y1={y(b.to)} y2={y(b.to)} />
              ) : null}
              <text class="value" x={x + barWidth / 2} y={top - 6} text-anchor="middle">
                {b.step.total || shown <= 0 ? money(shown) : `+${money(shown)}`}
              </text>
              <text class="label" x={x + barWidth / 2} y={HEIGHT - BOTTOM + 18} text-anchor="middle">
                {b.step.label}
              </text>
            </g>
          );
        })}
      </svg>
      <table class="waterfall-figures">
        <caption>The figures behind the chart</caption>
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col" class="numeric">
              Change
            </th>
            <th scope="col" class="numeric">
              Cash after it
            </th>
          </tr>
        </thead>
        <tbody>
          {bars.map((b) => (
            <tr key={b.step.label}>
              <th scope="row">{b.step.label}</th>
              <td class="numeric">{b.step.total ? '' : money(b.to - b.from)}</td>
              <td class="numeric">{money(b.to)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
