import { useEffect, useMemo, useState } from 'preact/hooks';
import { call, enc, type Breakdown, type BreakdownRow, type Dimension, type Query, type Timeseries, type VisitorsReport } from '../api';
import { VisitorsChart } from '../components/chart';
import { BarTable } from '../components/table';
import { Code, Empty, ErrorNote, Panel, Spinner } from '../components/ui';
import { change, num, pct, short } from '../format';
import { useApi, type Loaded } from '../hooks';
import { addDays, daysBetween, isDate, localTimezone, PRESETS, previousWindow, resolveWindow, timezones, type Preset } from '../range';
import { Link, setQuery, useLocation } from '../router';

const PAGE_SIZE = 10;

interface Filters {
  preset: Preset;
  timezone: string;
  from: string | null;
  to: string | null;
  pathPrefix: string | null;
  agent: string | null;
  page: number;
}

function readFilters(query: URLSearchParams): Filters {
  const preset = (PRESETS.some((p) => p.value === query.get('range')) ? query.get('range') : '7d') as Preset;
  const page = Math.max(1, Number.parseInt(query.get('page') ?? '1', 10) || 1);
  return {
    preset,
    timezone: query.get('tz') || localTimezone(),
    from: query.get('from'),
    to: query.get('to'),
    pathPrefix: query.get('path'),
    agent: query.get('agent'),
    page,
  };
}

export function OverviewPage(props: { token: string; projectId: string; theme: string }) {
  const { query } = useLocation();
  const f = readFilters(query);
  const win = resolveWindow(f.preset, f.timezone, f.from, f.to);
  const prev = previousWindow(f.preset, win);
  const shared: Query = { timezone: f.timezone, pathPrefix: f.pathPrefix };
  const key = [props.projectId, props.token, win.dateFrom, win.dateTo, f.timezone, f.pathPrefix];
  const base = `/v1/analytics/${enc(props.projectId)}`;
  const get = <T,>(path: string, q: Query) => (signal: AbortSignal) => call<T>(props.token, 'GET', `${base}/${path}`, { query: { ...shared, ...q }, signal });
  const breakdown = (by: Dimension, limit = PAGE_SIZE) => get<Breakdown>('breakdown', { by, limit, dateFrom: win.dateFrom, dateTo: win.dateTo });

  // Cards, chart and top pages first; the other panels ask once those have answered, so on a busy
  // server the numbers a reader looks at first do not queue behind seven breakdowns.
  const gate = useMemo(() => deferred(), key);
  const later = <T,>(load: (signal: AbortSignal) => Promise<T>) => (signal: AbortSignal) => gate.promise.then(() => load(signal));

  const pages = useApi(get<VisitorsReport>('visitors', { dateFrom: win.dateFrom, dateTo: win.dateTo, limit: PAGE_SIZE, offset: (f.page - 1) * PAGE_SIZE }), [...key, f.page]);
  const series = useApi(get<Timeseries>('timeseries', { dateFrom: win.dateFrom, dateTo: win.dateTo, interval: win.interval }), key);
  const previous = useApi(
    later((signal) =>
      Promise.all([
        get<VisitorsReport>('visitors', { dateFrom: prev.dateFrom, dateTo: prev.dateTo, limit: 1 })(signal),
        get<Timeseries>('timeseries', { dateFrom: prev.dateFrom, dateTo: prev.dateTo, interval: prev.interval === 'hour' ? 'day' : prev.interval })(signal),
      ]),
    ),
    key,
  );
  const agents = useApi(later(breakdown('agent')), key);
  const operators = useApi(later(breakdown('operator')), key);
  const referrers = useApi(later(breakdown('referrer')), key);
  const formats = useApi(later(breakdown('format')), key);
  const [deviceTab, setDeviceTab] = useState<'browser' | 'os' | 'device'>('browser');
  const devices = useApi(later(breakdown(deviceTab)), [...key, deviceTab]);

  const hits = (ts?: Timeseries) => ts?.buckets.reduce((s, b) => s + b.hits.human + b.hits.ai, 0);
  const botHits = series.data?.buckets.reduce((s, b) => s + b.hits.bot, 0) ?? 0;
  const totals = pages.data?.totals;
  const before = previous.data?.[0].totals;
  const hitsNow = hits(series.data);
  const hitsBefore = hits(previous.data?.[1]);
  const ready = !!(pages.data && series.data && !pages.loading && !series.loading);
  const answered = !pages.loading && !series.loading;
  useEffect(() => {
    if (answered) gate.resolve();
  }, [answered, gate]);
  const complete = ready && [previous, agents, operators, referrers, formats, devices].every((l) => !l.loading);
  // User Timing marks: bench/dashboard.ts reads them to measure time-to-interactive in a real browser.
  useEffect(() => {
    if (ready) performance.mark('docent:overview-ready');
  }, [ready]);
  useEffect(() => {
    if (complete) performance.mark('docent:overview-complete');
  }, [complete]);
  const noData = !f.pathPrefix && totals && totals.total === 0 && series.data && series.data.buckets.every((b) => !b.hits.human && !b.hits.ai && !b.hits.bot);

  return (
    <div class="overview" data-ready={ready ? 'true' : undefined} data-complete={complete ? 'true' : undefined}>
      <div class="page-head">
        <div>
          <h1>Overview</h1>
          <p class="muted">
            {win.label} · {f.timezone}
          </p>
        </div>
        <RangeControls f={f} />
      </div>

      <FilterChips f={f} />

      <section class={`cards ${noData ? 'sr-only' : ''}`} aria-label="Totals">
        <Card testid="card-human" label="Human visitors" tone="human" value={totals?.human} before={before?.human} loading={pages.loading && !totals} />
        <Card testid="card-ai" label="AI visitors" tone="ai" value={totals?.ai} before={before?.ai} loading={pages.loading && !totals} />
        <Card testid="card-total" label="Total visitors" value={totals?.total} before={before?.total} loading={pages.loading && !totals} note="a reader seen as both counts once" />
        <Card testid="card-hits" label="Hits" value={hitsNow} before={hitsBefore} loading={series.loading && hitsNow === undefined} note={botHits ? `+ ${short(botHits)} bot hits not counted` : 'human and AI'} />
      </section>
      <ErrorNote error={pages.error ?? series.error} />

      {noData ? (
        <GettingStarted projectId={props.projectId} />
      ) : (
        <>
          <Panel title="Visitors" id="chart" actions={<Legend />}>
            {series.data ? (
              <VisitorsChart buckets={series.data.buckets} interval={series.data.interval} timezone={series.data.timezone} theme={props.theme} />
            ) : series.error ? null : (
              <div class="chart-placeholder">
                <Spinner />
              </div>
            )}
          </Panel>

          <div class="grid">
            <TopPages loaded={pages} f={f} />
            <AgentsPanel loaded={agents} f={f} />
            <OperatorsPanel loaded={operators} />
            <ReferrersPanel loaded={referrers} />
            <FormatsPanel loaded={formats} />
            <Panel
              title="Devices"
              id="devices"
              actions={
                <div class="segmented" role="group" aria-label="Device dimension">
                  {(['browser', 'os', 'device'] as const).map((d) => (
                    <button type="button" aria-pressed={deviceTab === d} class={deviceTab === d ? 'active' : ''} onClick={() => setDeviceTab(d)}>
                      {d === 'os' ? 'OS' : d === 'browser' ? 'Browsers' : 'Devices'}
                    </button>
                  ))}
                </div>
              }
            >
              <SimpleBreakdown loaded={devices} label={deviceTab === 'os' ? 'Operating system' : deviceTab === 'browser' ? 'Browser' : 'Device'} empty="No human visits in this range." />
            </Panel>
          </div>
        </>
      )}
    </div>
  );
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

function Legend() {
  return (
    <div class="legend" aria-hidden="true">
      <span class="dot human" /> Human <span class="dot ai" /> AI
    </div>
  );
}

function Card(props: { label: string; value?: number; before?: number; loading: boolean; tone?: 'human' | 'ai'; note?: string; testid: string }) {
  const delta = props.value !== undefined && props.before !== undefined ? change(props.value, props.before) : null;
  return (
    <div class={`card ${props.tone ?? ''}`} data-testid={props.testid}>
      <div class="card-label">
        {props.tone ? <span class={`dot ${props.tone}`} aria-hidden="true" /> : null}
        {props.label}
      </div>
      <div class="card-value" data-value={props.value ?? ''} title={props.value !== undefined ? num(props.value) : undefined}>
        {props.value === undefined ? (props.loading ? <Spinner /> : '–') : short(props.value)}
      </div>
      <div class="card-foot">
        {delta === null ? (
          <span class="muted">{props.before === 0 && props.value ? 'new this period' : 'no earlier data'}</span>
        ) : (
          <span class={`delta ${delta > 0 ? 'up' : delta < 0 ? 'down' : ''}`} title="Change against the previous period of the same length">
            {delta > 0 ? '↑' : delta < 0 ? '↓' : '→'} {Math.abs(delta) >= 10 ? `${Math.round(delta)}×` : `${Math.abs(Math.round(delta * 100))}%`}
          </span>
        )}
        {props.note ? <span class="muted card-note">{props.note}</span> : null}
      </div>
    </div>
  );
}

function RangeControls({ f }: { f: Filters }) {
  const zones = timezones();
  const win = resolveWindow(f.preset, f.timezone, f.from, f.to);
  return (
    <div class="controls">
      <label class="field inline">
        <span>Range</span>
        <select
          value={f.preset}
          onChange={(e) => {
            const value = (e.target as HTMLSelectElement).value as Preset;
            if (value === 'custom') setQuery({ range: 'custom', from: win.dateFrom, to: addDays(win.dateTo, -1), page: null });
            else setQuery({ range: value, from: null, to: null, page: null });
          }}
        >
          {PRESETS.map((p) => (
            <option value={p.value}>{p.label}</option>
          ))}
        </select>
      </label>
      {f.preset === 'custom' ? (
        <>
          <label class="field inline">
            <span>From</span>
            <input type="date" value={win.dateFrom} max={addDays(win.dateTo, -1)} onChange={(e) => isDate((e.target as HTMLInputElement).value) && setQuery({ from: (e.target as HTMLInputElement).value, page: null })} />
          </label>
          <label class="field inline">
            <span>To</span>
            <input type="date" value={addDays(win.dateTo, -1)} min={win.dateFrom} onChange={(e) => isDate((e.target as HTMLInputElement).value) && setQuery({ to: (e.target as HTMLInputElement).value, page: null })} />
          </label>
        </>
      ) : null}
      <label class="field inline">
        <span>Time zone</span>
        <select value={f.timezone} onChange={(e) => setQuery({ tz: (e.target as HTMLSelectElement).value })}>
          {(zones.includes(f.timezone) ? zones : [f.timezone, ...zones]).map((z) => (
            <option value={z}>{z.replace(/_/g, ' ')}</option>
          ))}
        </select>
      </label>
      <span class="sr-only" aria-live="polite">
        {daysBetween(win.dateFrom, win.dateTo)} days
      </span>
    </div>
  );
}

function FilterChips({ f }: { f: Filters }) {
  if (!f.pathPrefix && !f.agent) return null;
  return (
    <div class="chips" aria-label="Active filters">
      {f.pathPrefix ? (
        <span class="chip">
          Page starts with <code>{f.pathPrefix}</code>
          <button type="button" aria-label={`Remove the page filter ${f.pathPrefix}`} onClick={() => setQuery({ path: null, page: null })}>
            ×
          </button>
        </span>
      ) : null}
      {f.agent ? (
        <span class="chip chip-ai">
          Agent <strong>{f.agent}</strong>
          <button type="button" aria-label={`Remove the agent filter ${f.agent}`} onClick={() => setQuery({ agent: null })}>
            ×
          </button>
        </span>
      ) : null}
      {f.agent ? <span class="chips-note">The analytics API filters by page, not by agent: cards and chart count every reader; the agent's row is highlighted below.</span> : null}
    </div>
  );
}

function PanelBody<T>(props: { loaded: Loaded<T>; children: (data: T) => preact.ComponentChildren }) {
  if (props.loaded.error) return <ErrorNote error={props.loaded.error} />;
  if (!props.loaded.data)
    return (
      <div class="panel-loading">
        <Spinner />
      </div>
    );
  return <div class={props.loaded.loading ? 'stale' : undefined}>{props.children(props.loaded.data)}</div>;
}

function TopPages({ loaded, f }: { loaded: Loaded<VisitorsReport>; f: Filters }) {
  return (
    <Panel
      title="Top pages"
      id="pages"
      actions={
        <div class="pager">
          <button type="button" class="btn btn-small btn-ghost" disabled={f.page <= 1} onClick={() => setQuery({ page: f.page > 2 ? String(f.page - 1) : null })} aria-label="Previous page of pages">
            ‹ Prev
          </button>
          <span class="muted">Page {f.page}</span>
          <button type="button" class="btn btn-small btn-ghost" disabled={!loaded.data?.hasMore} onClick={() => setQuery({ page: String(f.page + 1) })} aria-label="Next page of pages">
            Next ›
          </button>
        </div>
      }
    >
      <PanelBody loaded={loaded}>
        {(data) =>
          data.visitors.length === 0 ? (
            <Empty title={f.page > 1 ? 'No more pages.' : 'No page views in this range.'} />
          ) : (
            <BarTable
              caption="Top pages by unique visitors"
              rows={data.visitors}
              rowKey={(r) => r.path}
              barValue={(r) => r.total}
              barMax={Math.max(...data.visitors.map((r) => r.total), 1)}
              selected={(r) => r.path === f.pathPrefix}
              columns={[
                {
                  label: 'Page',
                  render: (r) => (
                    <button type="button" class="linkish" title={`Show only pages starting with ${r.path}`} onClick={() => setQuery({ path: r.path, page: null })}>
                      {r.path}
                    </button>
                  ),
                },
                { label: 'Human', numeric: true, render: (r) => num(r.human), class: 'human-text' },
                { label: 'AI', numeric: true, render: (r) => num(r.ai), class: 'ai-text' },
                { label: 'Total', numeric: true, render: (r) => num(r.total) },
              ]}
            />
          )
        }
      </PanelBody>
    </Panel>
  );
}

function verifiedShare(r: BreakdownRow): string {
  const v = r.verification;
  if (!v) return '–';
  // Only hits whose operator publishes IP ranges can be checked; the rest are "unknown", not unverified.
  const checked = v.verified + v.unverified;
  return checked ? pct(v.verified, checked) : '–';
}

function AgentsPanel({ loaded, f }: { loaded: Loaded<Breakdown>; f: Filters }) {
  return (
    <Panel title="AI agents" id="agents" actions={loaded.data ? <span class="muted">{short(loaded.data.totals.ai)} AI visitors</span> : null}>
      <PanelBody loaded={loaded}>
        {(data) =>
          data.rows.length === 0 ? (
            <Empty title="No AI agent read these pages in this range.">
              <p class="muted">AI crawlers do not run JavaScript: forward server-side hits (edge middleware or <code>import-log</code>) to see them.</p>
            </Empty>
          ) : (
            <BarTable
              caption="AI agents by unique visitors"
              rows={data.rows}
              rowKey={(r) => r.value}
              barValue={(r) => r.hits}
              barMax={Math.max(...data.rows.map((r) => r.hits), 1)}
              barClass={() => 'ai'}
              selected={(r) => r.value === f.agent}
              columns={[
                {
                  label: 'Agent',
                  render: (r) => (
                    <span class="stack">
                      <button type="button" class="linkish" title={`Highlight ${r.value}`} onClick={() => setQuery({ agent: f.agent === r.value ? null : r.value })}>
                        {r.value}
                      </button>
                      <span class="sub">
                        {r.operator || 'Unknown operator'} · <span class={`cat cat-${r.category}`}>{r.category}</span>
                      </span>
                    </span>
                  ),
                },
                { label: 'Visitors', numeric: true, render: (r) => num(r.ai) },
                { label: 'Hits', numeric: true, render: (r) => num(r.hits) },
                { label: 'Verified', numeric: true, render: (r) => <span title={r.verification ? `${num(r.verification.verified)} verified, ${num(r.verification.unverified)} unverified, ${num(r.verification.unknown)} not checkable` : undefined}>{verifiedShare(r)}</span> },
              ]}
            />
          )
        }
      </PanelBody>
    </Panel>
  );
}

function OperatorsPanel({ loaded }: { loaded: Loaded<Breakdown> }) {
  return (
    <Panel title="AI operators" id="operators">
      <PanelBody loaded={loaded}>
        {(data) =>
          data.rows.length === 0 ? (
            <Empty title="No AI operator in this range." />
          ) : (
            <>
              <BarTable
                caption="AI operators: crawls and the human readers their assistants sent"
                rows={data.rows}
                rowKey={(r) => r.value}
                barValue={(r) => r.hits}
                barMax={Math.max(...data.rows.map((r) => r.hits), 1)}
                barClass={() => 'ai'}
                columns={[
                  { label: 'Operator', render: (r) => r.value || <span class="muted">Unknown operator</span> },
                  { label: 'AI hits', numeric: true, render: (r) => num(r.hits) },
                  { label: 'Referred', numeric: true, render: (r) => num(r.referred ?? 0), class: 'human-text' },
                  { label: 'Crawls / referral', numeric: true, render: (r) => (r.crawlsPerReferral == null ? <span class="muted">–</span> : r.crawlsPerReferral >= 100 ? short(Math.round(r.crawlsPerReferral)) : r.crawlsPerReferral.toFixed(1)) },
                ]}
              />
              <p class="panel-foot muted">Crawls per referral: AI hits by the operator's agents for each human visitor its assistants sent here.</p>
            </>
          )
        }
      </PanelBody>
    </Panel>
  );
}

function ReferrersPanel({ loaded }: { loaded: Loaded<Breakdown> }) {
  return (
    <Panel title="Referrers" id="referrers">
      <PanelBody loaded={loaded}>
        {(data) =>
          data.rows.length === 0 ? (
            <Empty title="No human visits in this range." />
          ) : (
            <BarTable
              caption="Referrer hosts of human visitors"
              rows={data.rows}
              rowKey={(r) => r.value}
              barValue={(r) => r.human}
              barMax={Math.max(...data.rows.map((r) => r.human), 1)}
              barClass={(r) => (r.aiAssistant ? 'ai' : 'human')}
              columns={[
                {
                  label: 'Source',
                  render: (r) => (
                    <span>
                      {r.value === '' ? <span class="muted">Direct / none</span> : r.value}
                      {r.aiAssistant ? <span class="badge badge-ai" title={`An AI assistant: ${r.aiAssistant}`}>{r.aiAssistant}</span> : null}
                    </span>
                  ),
                },
                { label: 'Visitors', numeric: true, render: (r) => num(r.human) },
                { label: 'Share', numeric: true, render: (r) => pct(r.human, data.totals.human) },
              ]}
            />
          )
        }
      </PanelBody>
    </Panel>
  );
}

const FORMAT_LABEL: Record<string, string> = { html: 'HTML pages', markdown: 'Markdown (.md, .mdx)', 'llms.txt': 'llms.txt', other: 'Other (JSON, XML, feeds)' };

function FormatsPanel({ loaded }: { loaded: Loaded<Breakdown> }) {
  return (
    <Panel title="Formats fetched" id="formats">
      <PanelBody loaded={loaded}>
        {(data) =>
          data.rows.length === 0 ? (
            <Empty title="Nothing fetched in this range." />
          ) : (
            <BarTable
              caption="What was fetched: HTML, markdown, llms.txt"
              rows={data.rows}
              rowKey={(r) => r.value}
              barValue={(r) => r.hits}
              barMax={Math.max(...data.rows.map((r) => r.hits), 1)}
              barClass={(r) => (r.ai > r.human ? 'ai' : 'human')}
              columns={[
                { label: 'Format', render: (r) => FORMAT_LABEL[r.value] ?? r.value },
                { label: 'Human', numeric: true, render: (r) => num(r.human), class: 'human-text' },
                { label: 'AI', numeric: true, render: (r) => num(r.ai), class: 'ai-text' },
                { label: 'Hits', numeric: true, render: (r) => num(r.hits) },
              ]}
            />
          )
        }
      </PanelBody>
    </Panel>
  );
}

function SimpleBreakdown({ loaded, label, empty }: { loaded: Loaded<Breakdown>; label: string; empty: string }) {
  return (
    <PanelBody loaded={loaded}>
      {(data) =>
        data.rows.length === 0 ? (
          <Empty title={empty} />
        ) : (
          <BarTable
            caption={`${label} of human visitors`}
            rows={data.rows}
            rowKey={(r) => r.value}
            barValue={(r) => r.human}
            barMax={Math.max(...data.rows.map((r) => r.human), 1)}
            barClass={() => 'human'}
            columns={[
              { label, render: (r) => r.value || <span class="muted">Unknown</span> },
              { label: 'Visitors', numeric: true, render: (r) => num(r.human) },
              { label: 'Share', numeric: true, render: (r) => pct(r.human, data.totals.human) },
            ]}
          />
        )
      }
    </PanelBody>
  );
}

function GettingStarted({ projectId }: { projectId: string }) {
  const snippet = `<script defer src="${location.origin}/script.js" data-project="${projectId}"></script>`;
  const importCmd = `npm run cli -- import-log --url ${location.origin} --project ${projectId} --key $DOCENT_KEY access.log.gz`;
  return (
    <section class="panel getting-started" aria-labelledby="gs-title" data-testid="empty-state">
      <h2 id="gs-title">No readers yet — let's get the first ones in</h2>
      <p class="muted">Nothing was recorded for this project in this range. Two ways to start; most docs teams do both.</p>
      <ol class="steps">
        <li>
          <h3>Paste the tracker into your docs site</h3>
          <p class="muted">Counts human readers (under 1.5 KB, no cookies, respects Do Not Track). Put it in the <code>&lt;head&gt;</code> of every page.</p>
          <Code text={snippet} label="Copy snippet" />
        </li>
        <li>
          <h3>Import your server logs to see AI agents</h3>
          <p class="muted">AI crawlers and assistants never run JavaScript; your web server saw them. Send an nginx or Apache log (plain or .gz) through the ingest API:</p>
          <Code text={importCmd} label="Copy command" />
        </li>
      </ol>
      <p class="muted">
        Already sending hits? Try a longer range, or check the project's <Link href={`/dashboard/${enc(projectId)}/settings`}>settings</Link>.
      </p>
    </section>
  );
}
