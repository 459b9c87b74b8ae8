import { InvalidInput } from '../common/domain-errors';
import { parseInstant, parseVisitorsQuery } from './visitors.params';

const fieldsOf = (raw: Record<string, unknown>): string[] => {
  try {
    parseVisitorsQuery(raw);
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidInput);
    return ((err as InvalidInput).details ?? []).map((d) => d.field ?? '');
  }
  return [];
};

describe('parseInstant', () => {
  it.each([
    ['2026-03-01', '2026-03-01T00:00:00.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['2026-03-01T10:00:00Z', '2026-03-01T10:00:00.000Z'],
    ['2026-03-01t10:00:00z', '2026-03-01T10:00:00.000Z'],
    ['2026-03-01T10:00:00+02:00', '2026-03-01T08:00:00.000Z'],
    ['2026-03-01T10:00:00 02:00', '2026-03-01T08:00:00.000Z'],
    ['2026-03-01T10:00:00-05:30', '2026-03-01T15:30:00.000Z'],
    ['2026-03-01T10:00:00+0200', '2026-03-01T08:00:00.000Z'],
    ['2026-03-01T10:00:00+02', '2026-03-01T08:00:00.000Z'],
    ['2026-03-01T10:00', '2026-03-01T10:00:00.000Z'],
    ['2026-03-01T10:00:00', '2026-03-01T10:00:00.000Z'],
    ['2026-03-01T10:00:00.5Z', '2026-03-01T10:00:00.500Z'],
    ['2026-03-01T10:00:00.123Z', '2026-03-01T10:00:00.123Z'],
    ['2026-03-01T10:00:00.1230001Z', '2026-03-01T10:00:00.124Z'],
    ['2026-03-01T23:59:59.999-00:00', '2026-03-01T23:59:59.999Z'],
    ['0050-01-01', '0050-01-01T00:00:00.000Z'],
  ])('%s → %s', (text, iso) => {
    expect(new Date(parseInstant(text)!).toISOString()).toBe(iso);
  });

  it.each([
    'yesterday', 'now', '', '2026-13-01', '2026-00-10', '2026-02-30', '2025-02-29', '2100-02-29', '2026-04-31', '2026-3-1', '20260301',
    '2026-03-01T24:00:00Z', '2026-03-01T10:60Z', '2026-03-01T10:00:60Z', '2026-03-01T10:00:00+24:00', '2026-03-01T10:00:00+02:60',
    '2026-03-01T10Z', '2026-03-01 10:00:00', '2026-03-01T10:00:00.1234567890Z', '2026-03-01T10:00:00ZZ', '+2026-03-01', '1772359200000',
  ])('refuses %j', (text) => {
    expect(parseInstant(text)).toBeUndefined();
  });
});

describe('parseVisitorsQuery', () => {
  it('defaults limit 50, offset 0, unbounded range, and ignores unknown parameters', () => {
    expect(parseVisitorsQuery({ page: '3', foo: ['a', 'b'] })).toEqual({ from: undefined, to: undefined, timeZone: 'UTC', pathPrefix: undefined, limit: 50, offset: 0 });
  });

  it('reads the documented forms', () => {
    expect(parseVisitorsQuery({ dateFrom: '2026-03-01', dateTo: '2026-03-02T00:00:00+01:00', limit: '250', offset: '1000' })).toEqual({
      from: Date.parse('2026-03-01T00:00:00Z'), to: Date.parse('2026-03-01T23:00:00Z'), timeZone: 'UTC', limit: 250, offset: 1000,
    });
    expect(parseVisitorsQuery({ limit: '05', offset: '007' })).toMatchObject({ limit: 5, offset: 7 });
  });

  it('reads values without an offset as the wall clock of timezone; explicit offsets win', () => {
    expect(parseVisitorsQuery({ timezone: 'Asia/Kolkata', dateFrom: '2026-03-01', dateTo: '2026-03-01T10:30' })).toMatchObject({
      from: Date.parse('2026-02-28T18:30:00Z'), to: Date.parse('2026-03-01T05:00:00Z'), timeZone: 'Asia/Kolkata',
    });
    expect(parseVisitorsQuery({ timezone: 'Europe/Berlin', dateFrom: '2026-03-29T02:30', dateTo: '2026-03-30T00:00:00Z' })).toMatchObject({
      from: Date.parse('2026-03-29T01:30:00Z'), to: Date.parse('2026-03-30T00:00:00Z'),
    });
    expect(parseVisitorsQuery({ pathPrefix: '/docs' }).pathPrefix).toBe('/docs');
    expect(parseVisitorsQuery({ pathPrefix: '/' }).pathPrefix).toBeUndefined();
  });

  it.each([
    [{ timezone: 'Nowhere/Town' }, ['timezone']], [{ timezone: '' }, ['timezone']], [{ timezone: ['UTC', 'UTC'] }, ['timezone']],
    [{ pathPrefix: 'docs' }, ['pathPrefix']], [{ pathPrefix: '' }, ['pathPrefix']], [{ pathPrefix: '/' + 'x'.repeat(2048) }, ['pathPrefix']],
    [{ limit: '0' }, ['limit']], [{ limit: '251' }, ['limit']], [{ limit: '1.5' }, ['limit']], [{ limit: 'abc' }, ['limit']],
    [{ limit: '' }, ['limit']], [{ limit: '+5' }, ['limit']], [{ limit: ' 5' }, ['limit']], [{ limit: '1e1' }, ['limit']], [{ limit: ['5', '6'] }, ['limit']],
    [{ offset: '-1' }, ['offset']], [{ offset: '1.0' }, ['offset']], [{ offset: '99999999999999999999' }, ['offset']],
    [{ dateFrom: '2026-13-01' }, ['dateFrom']], [{ dateFrom: 'yesterday' }, ['dateFrom']], [{ dateTo: '2026-02-30' }, ['dateTo']],
    [{ dateFrom: ['2026-03-01', '2026-03-02'] }, ['dateFrom']],
    [{ dateFrom: '2026-03-02', dateTo: '2026-03-01' }, ['dateFrom', 'dateTo']], [{ dateFrom: '2026-03-01', dateTo: '2026-03-01T00:00:00Z' }, ['dateFrom', 'dateTo']],
    [{ dateFrom: 'x', limit: '0', offset: '-1' }, ['dateFrom', 'limit', 'offset']],
  ])('%j → 400 naming %j', (raw, fields) => {
    expect(fieldsOf(raw)).toEqual(fields);
  });
});
