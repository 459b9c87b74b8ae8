import type { ClickHouseClient } from '@clickhouse/client';
import type { FastifyInstance } from 'fastify';
import fc from 'fast-check';
import { CLICKHOUSE } from '../src/clickhouse/clickhouse.module';
import { Database } from '../src/database/database';
import { Route, routesOf } from './support/routes';
import { ADMIN_TOKEN, startTestApp, TestApp } from './support/test-app';

/**
 * Property-based: generated ids, query strings, headers and bodies against every route the app
 * registers (enumerated from Fastify, so a new route is covered without editing this file).
 * For every request: no 5xx; every 4xx has the one error shape; a rejected request leaves the stores
 * (ClickHouse hits, every Postgres table) exactly as they were.
 *
 * PROPERTY_RUNS (default 25) is the number of generated requests per route and method;
 * PROPERTY_SEED (default fixed) reproduces a run. A failure prints the seed and the shrunk request.
 */
const RUNS = Number(process.env.PROPERTY_RUNS ?? 25);
const SEED = Number(process.env.PROPERTY_SEED ?? 20261123);

// Values chosen because they broke (or nearly broke) something before, mixed with arbitrary ones.
const nasty = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '/x\ud800',
  '%00',
  '%zz',
  '%',
  '..',
  '../../etc/passwd',
  '1e1',
  '0x10',
  ' 5',
  '-1',
  '0',
  '251',
  '9007199254740993',
  'NaN',
  '9999-12-31',
  '9999-12-31T23:59:59.999+14:00',
  '9999-12-31T23:00:00-14:00',
  '9999-12-31T23:59:59.999-01:00',
  'Pacific/Kiritimati',
  'Etc/GMT+12',
  '10000-01-01',
  '0000-01-01',
  '0099-06-01T00:00:00Z',
  '2026-02-30',
  '2026-11-21T10:00:00.000Z',
  'Europe/Berlin',
  'Mars/Olympus',
  'job_does_not_exist',
  'prj_does_not_exist',
  'key_does_not_exist',
  'https://github.com/acme/docs',
  'https://gitlab.example/acme/docs',
  'file:///etc',
  'http://[::1',
  '__proto__',
  'constructor',
  'x'.repeat(5000),
  '/',
);
const text = fc.oneof({ weight: 4, arbitrary: nasty }, fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }));
const ascii = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 });

const FIELDS = ['prompt', 'name', 'repository', 'ref', 'cloneUrl', 'path', 'referrer', 'hits', 'timestamp', 'userAgent', 'ip', 'visitorId', 'status', 'url'];
const leaf = fc.oneof({ weight: 6, arbitrary: text }, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const fieldValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: leaf },
  { weight: 1, arbitrary: fc.array(leaf, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), leaf, { maxKeys: 4 }) },
);
const hit = fc.dictionary(fc.constantFrom('timestamp', 'path', 'userAgent', 'ip', 'visitorId', 'referrer', 'extra'), leaf, { maxKeys: 6 });
const UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
/** A valid body per route (by path), so most generated bodies are one mutated field away from accepted. */
const TEMPLATES: Array<[RegExp, Record<string, unknown>]> = [
  [/^\/v1\/projects(\/:projectId)?$/, { name: 'docs', repository: 'https://github.com/acme/docs', ref: 'main' }],
  [/\/hits$/, { hits: [{ path: '/a', userAgent: UA, timestamp: '2026-11-20T10:00:00Z', visitorId: 'v1' }] }],
  [/\/collect\//, { path: '/a', referrer: 'https://www.google.com/' }],
  [/\/(job|message)$/, { prompt: 'Fix the typo on the install page.' }],
];
const mutated = (template: Record<string, unknown>): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...Object.keys(template), ...Object.keys((template.hits as object[] | undefined)?.[0] ?? {})) }, fc.constantFrom(...FIELDS)),
      fc.oneof({ weight: 1, arbitrary: fc.constantFrom('\u0000', 'a\u0000b', '\ud800', '/x\ud800', '/'.padEnd(200_000, 'x')) }, { weight: 2, arbitrary: fieldValue }),
      fc.boolean(),
    )
    .map(([field, value, inHit]) => {
      const copy = structuredClone(template) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
      if (inHit && Array.isArray(copy.hits)) copy.hits[0][field] = value;
      else copy[field] = value;
      return JSON.stringify(copy);
    });
const bodyFor = (path: string): fc.Arbitrary<string | undefined> => {
  const template = TEMPLATES.find(([pattern]) => pattern.test(path))?.[1];
  return template ? fc.oneof({ weight: 1, arbitrary: fc.constant(JSON.stringify(template)) }, { weight: 4, arbitrary: mutated(template) }, { weight: 2, arbitrary: body }) : body;
};
const body: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.dictionary(fc.constantFrom(...FIELDS), fieldValue, { maxKeys: 5 }).map((o) => JSON.stringify(o)),
  fc.array(hit, { maxLength: 4 }).map((hits) => JSON.stringify({ hits })),
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.oneof(ascii, fc.constantFrom('{', '{"a":', '[]', 'null', '"x"', '{"__proto__":{"x":1}}', '{"prompt":"a\\u0000"}')),
);

/** encodeURIComponent, except a lone surrogate (which it refuses) goes as the bytes a careless client would send. */
const enc = (s: string): string => {
  try {
    return encodeURIComponent(s);
  } catch {
    return [...Buffer.from(s, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('') + '%ed%a0%80';
  }
};

const queryPart = fc.oneof(
  fc.tuple(fc.constantFrom('limit', 'offset', 'dateFrom', 'dateTo', 'status', 'timezone', 'pathPrefix', 'interval', 'by', 'dimension', 'x'), text).map(
    ([k, v]) => `${enc(k)}=${enc(v)}`,
  ),
  ascii.map((raw) => raw.replace(/[#\s]/g, '')),
);
const query = fc.array(queryPart, { maxLength: 4 }).map((parts) => (parts.length ? `?${parts.join('&')}` : ''));

describe('Every route under generated input: no 5xx, the one error shape, stores unchanged by a rejection (embedded engines)', () => {
  let t: TestApp;
  let routes: Route[];
  let own: { projectId: string; apiKey: string };
  let other: { projectId: string; apiKey: string };
  let jobId: string;
  let keyId: string;
  let clickhouse: ClickHouseClient;
  let database: Database;
  let pgTables: string[];

  /** Row counts of ClickHouse hits and of every Postgres table, as one comparable string. */
  async function storeCounts(): Promise<string> {
    const rs = await clickhouse.query({ query: 'SELECT count() AS n FROM hits', format: 'JSONEachRow' });
    const [{ n }] = await rs.json<{ n: string }>();
    const pg = await database.query<{ t: string; n: string }>(pgTables.map((name, i) => `SELECT ${i} AS i, '${name}' AS t, count(*)::text AS n FROM "${name}"`).join(' UNION ALL ') + ' ORDER BY i');
    return [`hits=${n}`, ...pg.map((r) => `${r.t}=${r.n}`)].join(' ');
  }

  beforeAll(async () => {
    t = await startTestApp();
    routes = routesOf(t.app.getHttpAdapter().getInstance() as FastifyInstance);
    clickhouse = t.app.get<ClickHouseClient>(CLICKHOUSE);
    database = t.app.get(Database);
    const tables = await database.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name",
    );
    pgTables = tables.map((r) => r.table_name).filter((name) => /^[a-z0-9_]+$/.test(name));
    own = await t.createProject({ name: 'property-own', repository: 'https://github.com/acme/docs' });
    other = await t.createProject({ name: 'property-other' });
    const job = await t.request('POST', `/v2/agent/${own.projectId}/job`, { token: own.apiKey, body: { prompt: 'seed job' } });
    jobId = job.body.id;
    const key = await t.request('POST', `/v1/projects/${own.projectId}/keys`, { token: ADMIN_TOKEN });
    keyId = key.body.id;
  });
  afterAll(() => t?.close());

  it('finds the routes the app registers', () => {
    const paths = new Set(routes.map((r) => `${r.method} ${r.path}`));
    for (const expected of ['POST /v1/projects', 'POST /v1/ingest/:projectId/hits', 'POST /v1/collect/:projectId', 'GET /v1/analytics/:projectId/visitors', 'POST /v2/agent/:projectId/job', 'GET /v2/agent/:projectId/jobs', 'DELETE /v1/projects/:projectId/keys/:keyId', 'GET /health']) {
      expect(paths).toContain(expected);
    }
  });

  const yearTenThousand = async (report: string) => {
    for (const q of ['dateTo=9999-12-31T23:00:00-14:00', 'dateTo=9999-12-31&timezone=Etc/GMT%2B12', 'dateFrom=9999-12-31T23:59:59.999-01:00', 'dateTo=10000-01-01']) {
      const res = await t.request('GET', `/v1/analytics/${own.projectId}/${report}?${q}&by=path&interval=day`, { token: own.apiKey });
      expect([q, res.status < 500]).toEqual([q, true]);
      if (res.status >= 400) expect([q, isErrorShape(res.body)]).toEqual([q, true]);
    }
  };
  it.each(['visitors', 'breakdown', 'timeseries'])('answers a dateTo that rolls into year 10000 on %s without a 5xx, in the one shape', yearTenThousand);

  it('answers every generated request without a 5xx, in the one error shape, leaving the stores unchanged when it refuses', async () => {
    const segment = (known: () => string[]) =>
      fc.oneof(
        { weight: 1, arbitrary: fc.constantFrom(...known()) },
        { weight: 2, arbitrary: text.map(enc) },
        { weight: 2, arbitrary: fc.constantFrom('%00', '%zz', '%', 'a%00b', '%ff%fe', '%c0%80', '%ed%a0%80', '..', 'x'.repeat(3000)) },
      );
    const param = (name: string): fc.Arbitrary<string> => {
      switch (name) {
        case 'projectId':
          return segment(() => [other.projectId, 'default', own.projectId]);
        case 'id':
          return segment(() => [jobId]);
        case 'keyId':
          return segment(() => [keyId]);
        default:
          return segment(() => ['x']);
      }
    };
    const validParam = (name: string): string => (name === 'projectId' ? own.projectId : name === 'id' ? jobId : name === 'keyId' ? keyId : 'x');
    const headers = fc.record(
      {
        authorization: fc.oneof(
          { weight: 5, arbitrary: fc.constant(`Bearer ${own.apiKey}`) },
          fc.constant(`Bearer ${other.apiKey}`),
          fc.constant(`Bearer ${other.apiKey}`),
          fc.constant(`Bearer ${ADMIN_TOKEN}`),
          ascii.map((s) => `Bearer ${s}`),
          ascii,
          fc.constant(''),
        ),
        'content-type': fc.oneof({ weight: 6, arbitrary: fc.constant('application/json') }, fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-16', 'application/x-www-form-urlencoded', 'multipart/form-data'), ascii),
        'idempotency-key': ascii,
        'x-forwarded-for': fc.oneof(fc.constantFrom('1.2.3.4', '::1', 'not-an-ip', '999.1.1.1'), ascii),
        'user-agent': ascii,
        origin: fc.constantFrom('https://docs.example', 'null'),
        'if-none-match': ascii,
      },
      { requiredKeys: [] },
    );

    const failures: string[] = [];
    const statuses = new Map<number, number>();
    let counts = await storeCounts();
    for (const route of routes) {
      const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
      // Each request is valid in all but (at most) one dimension, so the hostile part reaches deep.
      const validAuth = route.path.startsWith('/v1/projects') ? `Bearer ${ADMIN_TOKEN}` : `Bearer ${own.apiKey}`;
      const template = TEMPLATES.find(([pattern]) => pattern.test(route.path))?.[1];
      const hasBody = route.method !== 'GET' && route.method !== 'HEAD';
      const valid = { authorization: validAuth, 'content-type': 'application/json' };
      const request = fc.constantFrom('none', 'params', 'query', 'headers', 'body').chain((hostile) =>
        fc.record({
          hostile: fc.constant(hostile),
          params: hostile === 'params' ? fc.tuple(...names.map(param), fc.constant('')) : fc.constant([...names.map(validParam), '']),
          wildcard: segment(() => ['index.html', 'x']),
          query: hostile === 'query' ? query : fc.constant(''),
          headers: hostile === 'headers' ? headers.map((h) => ({ ...valid, ...h })) : fc.constant(valid),
          body: !hasBody ? fc.constant(undefined) : hostile === 'body' ? bodyFor(route.path) : fc.constant(template ? JSON.stringify(template) : undefined),
        }),
      );
      await fc.assert(
        fc.asyncProperty(request, async (r) => {
          let i = 0;
          const path = route.path.replace(/:(\w+)/g, () => r.params[i++]).replace(/\*$/, r.wildcard) + r.query;
          const res = await fetch(t.url + path, { method: route.method, headers: r.headers, body: r.body });
          const raw = await res.text();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const where = `${route.method} ${path} ${JSON.stringify(r.headers)} ${JSON.stringify(r.body)?.slice(0, 300)} → ${res.status} ${raw.slice(0, 300)}`;
          expect([where, res.status < 500]).toEqual([where, true]);
          if (res.status >= 400) {
            if (route.method !== 'HEAD') {
              let parsed: unknown;
              try {
                parsed = JSON.parse(raw);
              } catch {
                parsed = raw;
              }
              expect([where, isErrorShape(parsed)]).toEqual([where, true]);
            }
            expect([where, await storeCounts()]).toEqual([where, counts]);
          } else {
            counts = await storeCounts();
          }
        }),
        { numRuns: hasBody ? RUNS * 3 : RUNS, seed: SEED, endOnFailure: true },
      ).catch((err: Error) => (process.env.PROPERTY_VERBOSE && process.stdout.write(`${err.message}\nCAUSE ${String((err.cause as Error)?.message ?? err.cause)}\n`), failures.push(`${route.method} ${route.path}: ${err.message.split('\n').filter((l) => /Counterexample|seed|→|^[+-] /.test(l)).slice(0, 12).join("\n")}`)));
    }
    expect(failures).toEqual([]);
    // The generators reach past the edge: some requests succeed, and refusals come from every layer.
    const seen = [...statuses.keys()];
    expect(seen.filter((s) => s < 300).length).toBeGreaterThan(0);
    expect(seen).toEqual(expect.arrayContaining([400, 401, 404]));
    if (process.env.PROPERTY_VERBOSE) process.stdout.write(`statuses: ${JSON.stringify([...statuses].sort())}\n`);
    // Some 2,000 requests through every layer in one test: 30-40 s on an idle 2-core machine, past
    // the default 60 s on a loaded one (a CI run beside another job). The limit guards a hang, not speed.
  }, 300_000);
});

function isErrorShape(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const { error, details, ...rest } = body as Record<string, unknown>;
  if (typeof error !== 'string' || error.length === 0 || Object.keys(rest).length) return false;
  if (details === undefined) return true;
  return Array.isArray(details) && details.every((d) => typeof d === 'object' && d !== null && typeof d.message === 'string' && (d.field === undefined || typeof d.field === 'string'));
}
