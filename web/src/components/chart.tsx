import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Bucket, Interval } from '../api';
import { num, short } from '../format';

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
      height: 260,
      padding: [12, 8, 0, 0],
      cursor: { points: { size: 8 }, drag: { x: false, y: false } },
      legend: { show: true, live: true },
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
        { label: props.interval === 'hour' ? 'Hour' : props.interval === 'month' ? 'Month' : props.interval === 'week' ? 'Week of' : 'Day', value: (_u, v) => (v == null ? '–' : full.format(new Date(v * 1000))) },
        { label: 'Human visitors', stroke: human, width: 2, fill: `${human}24`, points: { show: few, size: 5, fill: human }, value: (_u, v) => (v == null ? '–' : num(v)) },
        { label: 'AI visitors', stroke: ai, width: 2, fill: `${ai}14`, points: { show: few, size: 5, fill: ai }, value: (_u, v) => (v == null ? '–' : num(v)) },
      ],
    };
    const plot = new uPlot(opts, [xs, props.buckets.map((b) => b.human), props.buckets.map((b) => b.ai)], el);
    const resize = new ResizeObserver(() => plot.setSize({ width: el.clientWidth, height: 260 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [props.buckets, props.interval, props.timezone, props.theme]);
  return <div class="chart" ref={box} role="img" aria-label="Unique visitors over time, human and AI" data-testid="chart" />;
}
