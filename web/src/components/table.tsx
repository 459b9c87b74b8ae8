import type { ComponentChildren } from 'preact';

export interface Column<R> {
  label: string;
  /** Numbers are right-aligned and tabular. */
  numeric?: boolean;
  render: (row: R) => ComponentChildren;
  class?: string;
}

/**
 * A table whose first column carries a faint bar proportional to `barValue` (Plausible-style),
 * so the eye reads the ranking without a second chart.
 */
export function BarTable<R>(props: {
  caption: string;
  columns: Column<R>[];
  rows: R[];
  rowKey: (row: R) => string;
  barValue: (row: R) => number;
  barMax: number;
  barClass?: (row: R) => string;
  selected?: (row: R) => boolean;
}) {
  return (
    <table class="bars">
      <caption class="sr-only">{props.caption}</caption>
      <thead>
        <tr>
          {props.columns.map((c) => (
            <th scope="col" class={`${c.numeric ? 'num' : ''} ${c.class ?? ''}`}>
              {c.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.rows.map((row) => {
          const width = props.barMax > 0 ? Math.max(0.5, (100 * props.barValue(row)) / props.barMax) : 0;
          return (
            <tr key={props.rowKey(row)} class={props.selected?.(row) ? 'selected' : undefined}>
              {props.columns.map((c, i) =>
                i === 0 ? (
                  <td class={`label-cell ${c.class ?? ''}`}>
                    <span class={`bar ${props.barClass?.(row) ?? ''}`} style={{ width: `${width}%` }} aria-hidden="true" />
                    <span class="label-text">{c.render(row)}</span>
                  </td>
                ) : (
                  <td class={`${c.numeric ? 'num' : ''} ${c.class ?? ''}`}>{c.render(row)}</td>
                ),
              )}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
