import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Bucket, Interval } from '../api';
import { num, short } from '../format';

function line(kind: string, text: string, extra?: string): HTMLElement {
  const row = document.createElement('div');
  row.className = kind === 'chart-tip-title' ? kind : 'chart-tip-row';
  if (kind !== 'chart-tip-title') {
    const dot = document.createElement('span');
    dot.className = `dot ${kind}`;
    row.append(dot);
  }
  row.append(text);
  if (extra) {
    const muted = document.createElement('span');
    muted.className = 'muted';
    muted.textContent = extra;
    row.append(muted);
  }
  return row;
}

function cssVar(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

const AXIS_FORMAT: Record<Interval, Intl.DateTimeFormatOptions> = {
  hour: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  day: { day: 'numeric', month: 'short' },
  week: { day: 'numeric', month: 'short' },
  month: { month: 'short', year: 'numeric' },
};

/** Human vs AI unique visitors per bucket; colours come from the theme's --human / --ai. */
export function VisitorsChart(props: { buckets: Bucket[]; interval: Interval; timezone: string; theme: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const human = cssVar('--human');
    const ai = cssVar('--ai');
    const grid = cssVar('--grid');
    const muted = cssVar('--muted');
    const fmt = new Intl.DateTimeFormat('en-GB', { ...AXIS_FORMAT[props.interval], timeZone: props.timezone });
    const full = new Intl.DateTimeFormat('en-GB', {
      ...(props.interval === 'hour' ? { dateStyle: 'medium', timeStyle: 'short' } : props.interval === 'month' ? { month: 'long', year: 'numeric' } : { dateStyle: 'full' }),
      timeZone: props.timezone,
    });
    const xs = props.buckets.map((b) => Date.parse(b.start) / 1000);
    const few = props.buckets.length <= 40;
    const axis = { stroke: muted, grid: { stroke: grid, width: 1 }, ticks: { show: false }, font: '12px system-ui, sans-serif' };
    const opts: uPlot.Options = {
      width: el.clientWidth || 600,
      height: 290,
      padding: [12, 28, 0, 12],
      cursor: { points: { size: 8 }, drag: { x: false, y: false } },
      legend: { show: false },
      hooks: { setCursor: [(u) => showTooltip(u, tip)] },
      scales: { x: { time: false }, y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.1))] } },
      axes: [
        {
          ...axis,
          grid: { show: false },
          // Ticks on bucket starts only (never between two days), thinned to fit the width.
          splits: (u) => {
            const step = Math.max(1, Math.ceil(xs.length / Math.max(2, Math.floor(u.bbox.width / devicePixelRatio / 72))));
            return xs.filter((_, i) => i % step === 0);
          },
          values: (_u, splits) => splits.map((s) => fmt.format(new Date(s * 1000))),
        },
        { ...axis, values: (_u, splits) => splits.map((s) => (Number.isInteger(s) ? short(s) : '')), size: 48 },
      ],
      series: [
        {},
        { label: 'Human visitors', stroke: human, width: 2, fill: `${human}24`, points: { show: few, size: 5, fill: human } },
        { label: 'AI visitors', stroke: ai, width: 2, fill: `${ai}14`, points: { show: few, size: 5, fill: ai } },
      ],
    };
    // A tooltip that follows the cursor: the bucket, then human and AI visitors and hits.
    const tip = document.createElement('div');
    tip.className = 'chart-tip';
    tip.setAttribute('role', 'status');
    const buckets = props.buckets;
    const showTooltip = (u: uPlot, box: HTMLDivElement) => {
      const i = u.cursor.idx;
      if (i == null || u.cursor.left == null || u.cursor.left < 0) {
        box.style.opacity = '0';
        return;
      }
      const b = buckets[i];
      box.replaceChildren(
        line('chart-tip-title', full.format(new Date(xs[i] * 1000))),
        line('human', `${num(b.human)} human visitors`, `${num(b.hits.human)} hits`),
        line('ai', `${num(b.ai)} AI visitors`, `${num(b.hits.ai)} hits`),
      );
      const x = Math.min(u.cursor.left + 14, u.over.clientWidth - box.offsetWidth - 4);
      box.style.transform = `translate(${Math.max(0, x)}px, ${Math.max(0, (u.cursor.top ?? 0) - 20)}px)`;
      box.style.opacity = '1';
    };
    const plot = new uPlot(opts, [xs, props.buckets.map((b) => b.human), props.buckets.map((b) => b.ai)], el);
    plot.over.appendChild(tip);
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height: 290 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [props.buckets, props.interval, props.timezone, props.theme]);
  return <div class="chart" ref={box} role="img" aria-label="Unique visitors over time, human and AI" data-testid="chart" />;
}
