// The generated month both report benches share (bench/visitors.ts, bench/dashboard.ts): its start,
// the columns they fill, and paths drawn Zipf(1.1) over 2,000 pages (inverse-CDF of the continuous
// power law), as ClickHouse SQL fragments.
export const zipf = (u: string) => `least(2000, toUInt32(floor(pow(1 - ${u} * (1 - pow(2001, -0.1)), -10))))`;
export const pathOf = (r: string) => `concat('/docs/', ['guides','api','reference','tutorials','blog','changelog','sdk'][${r} % 7 + 1], '/page-', toString(${r}))`;
export const START = `toDateTime64('2026-03-01 00:00:00', 3, 'UTC')`;
export const COLUMNS = 'project_id, timestamp, path, visitor_id, class, ai_agent, ai_category, ai_operator, verification, browser, os, device, referrer_host, utm_source';
