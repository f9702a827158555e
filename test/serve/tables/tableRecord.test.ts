// The stored table record, yaniv-table/1 (serve/tables/tableRecord.ts): what a store reads back is
// parsed, and a record of another version or a damaged one is refused naming the field.
import { describe, expect, it } from 'vitest';
import { sampleSettings } from './tableStoreContract.js';
import { TABLE_RECORD_FORMAT, TableRecordError, decodeMoves, encodeMoves, parseStoredTable } from '../../../serve/tables/tableRecord.js';

const SETTINGS = sampleSettings('t-1', { token: 'tok', seed: 3, models: { strong: 2 } });

const stored = (change: Partial<Record<'format' | 'settings' | 'moves' | 'deadline' | 'expireAt', string>> = {}) => ({
  format: TABLE_RECORD_FORMAT,
  settings: JSON.stringify(SETTINGS),
  moves: encodeMoves([12, 7, 1352]),
  deadline: '',
  expireAt: '1700000000000',
  ...change,
});

function refusal(fields: ReturnType<typeof stored>): string {
  try {
    parseStoredTable(fields, 't-1');
  } catch (error) {
    expect(error).toBeInstanceOf(TableRecordError);
    return (error as Error).message;
  }
  throw new Error('the record was accepted');
}

describe('the stored table record', () => {
  it('reads back what was written', () => {
    expect(parseStoredTable(stored(), 't-1')).toEqual({
      format: TABLE_RECORD_FORMAT,
      settings: SETTINGS,
      moves: [12, 7, 1352],
      deadline: null,
      expireAt: 1700000000000,
    });
    expect(parseStoredTable(stored({ deadline: '1700000000500' }), 't-1').deadline).toBe(1700000000500);
    expect(decodeMoves(encodeMoves([]))).toEqual([]);
  });

  it('refuses a record of another version', () => {
    expect(refusal(stored({ format: 'yaniv-table/2' }))).toMatch(
      /t-1 in the store is not a yaniv-table\/1 record: format must be yaniv-table\/1/,
    );
  });

  it('reads a record without the field as the build before this one wrote it (the same layout): a rolling upgrade resumes its tables', () => {
    const { format: _format, ...older } = stored();
    expect(parseStoredTable({ ...older, format: null as unknown as string }, 't-1').settings).toEqual(
      parseStoredTable(stored(), 't-1').settings,
    );
    expect(parseStoredTable(stored({ format: '' }), 't-1').moves).toEqual(parseStoredTable(stored(), 't-1').moves);
  });

  it('names the damaged field', () => {
    expect(refusal(stored({ settings: '{"id":' }))).toMatch(/settings is not JSON/);
    expect(refusal(stored({ settings: JSON.stringify({ ...SETTINGS, seed: 'x' }) }))).toMatch(/settings\.seed/);
    expect(refusal(stored({ settings: JSON.stringify({ ...SETTINGS, seats: [{ seat: 0, player: 'ghost' }] }) }))).toMatch(
      /settings\.seats\[0\]\.player/,
    );
    expect(refusal(stored({ settings: JSON.stringify({ ...SETTINGS, extra: 1 }) }))).toMatch(/unknown field "extra"/);
    expect(refusal(stored({ moves: '1,2' }))).toMatch(/moves.*not a list of action ids/);
    expect(refusal(stored({ expireAt: 'soon' }))).toMatch(/expireAt must be a time in ms/);
  });
});
