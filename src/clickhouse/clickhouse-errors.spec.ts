import { ClickHouseError } from '@clickhouse/client';
import { isRejectedData } from './clickhouse-errors';

const error = (code: string, type: string, message = type) => new ClickHouseError({ code, type, message });

describe('isRejectedData: the rows\' fault (400) or the store\'s (503)', () => {
  it.each([
    ['25', 'CANNOT_PARSE_ESCAPE_SEQUENCE'],
    ['27', 'CANNOT_PARSE_INPUT_ASSERTION_FAILED'],
    ['41', 'CANNOT_PARSE_DATETIME'],
    ['53', 'TYPE_MISMATCH'],
    ['117', 'INCORRECT_DATA'],
    ['691', 'UNKNOWN_ELEMENT_OF_ENUM'],
  ])('%s %s is the data', (code, type) => expect(isRejectedData(error(code, type))).toBe(true));

  it('TOO_MANY_PARTS is the data only when it is about partitions per insert', () => {
    expect(isRejectedData(error('252', 'TOO_MANY_PARTS', 'Too many partitions for single INSERT block (more than 100).'))).toBe(true);
    expect(isRejectedData(error('252', 'TOO_MANY_PARTS', 'Too many parts (3001 with average size of 1 KiB) in table. Merges are processing significantly slower than inserts'))).toBe(false);
  });

  it.each([
    ['60', 'UNKNOWN_TABLE'],
    ['159', 'TIMEOUT_EXCEEDED'],
    ['241', 'MEMORY_LIMIT_EXCEEDED'],
    ['202', 'TOO_MANY_SIMULTANEOUS_QUERIES'],
    ['210', 'NETWORK_ERROR'],
  ])('%s %s is the store', (code, type) => expect(isRejectedData(error(code, type))).toBe(false));

  it('anything that is not a ClickHouse error is the store (connection refused, a closed client)', () => {
    expect(isRejectedData(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe(false);
    expect(isRejectedData('boom')).toBe(false);
  });
});
