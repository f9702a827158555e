// What the page keeps (web/storage.ts): the table to take back (with how it was dealt, for a
// one-click new deal when it is lost), the token the player typed, and the advisor as left —
// read back as written, and anything else (missing, malformed, storage refused) read as nothing.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Msg } from '../../serve/index.js';
import { forgetTable, loadAdvisor, loadTable, loadToken, saveAdvisor, saveTable, saveToken } from '../../web/storage.js';

/** A Storage kept in a Map, or one that refuses everything (private mode, a full disk). */
function storage(refuse = false): Storage {
  const items = new Map<string, string>();
  const check = () => {
    if (refuse) throw new Error('QuotaExceededError');
  };
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    key: (i: number) => [...items.keys()][i] ?? null,
    getItem: (key: string) => (check(), items.get(key) ?? null),
    setItem: (key: string, value: string) => (check(), void items.set(key, value)),
    removeItem: (key: string) => (check(), void items.delete(key)),
  };
}

const settings = { preset: 'dutch', bots: ['strong', 'novice'], rules: { milestones: [[100, 40]] }, thinkMs: 300, seed: null } as const;

describe('web/storage', () => {
  beforeEach(() => {
    Object.assign(globalThis, { sessionStorage: storage(), localStorage: storage() });
  });
  afterEach(() => {
    Reflect.deleteProperty(globalThis, 'sessionStorage');
    Reflect.deleteProperty(globalThis, 'localStorage');
  });

  it('keeps the table with its settings, the token and the advisor, and reads them back', () => {
    saveTable({ table: 't-1', token: 'x', rounds: [], log: [], roundStartedAt: 0, settings });
    expect(loadTable()).toEqual({ table: 't-1', token: 'x', rounds: [], log: [], roundStartedAt: 0, settings });
    forgetTable();
    expect(loadTable()).toBeNull();
    expect(loadToken()).toBeNull();
    saveToken('s3cret');
    expect(loadToken()).toBe('s3cret');
    expect(loadAdvisor()).toBeNull();
    saveAdvisor({ on: true, agent: 'strong' });
    expect(loadAdvisor()).toEqual({ on: true, agent: 'strong' });
  });

  it("keeps the round's plays, so that a reload shows the log and each seat's last move again; a table saved without them reads as none", () => {
    const laid: Msg<'event'> = {
      ...{ type: 'event', table: 't-1', seat: 0, counter: 4, actor: 1, kind: 'discard', action: 9, text: 'discard KS' },
      ...{ cards: ['KS'], reshuffled: false, timeout: false },
    };
    saveTable({ table: 't-1', token: 'x', rounds: [], log: [laid], roundStartedAt: 2 });
    expect(loadTable()).toMatchObject({ log: [laid], roundStartedAt: 2 });
    sessionStorage.setItem('yaniv-arena.table', JSON.stringify({ table: 't-1', token: 'x', rounds: [] }));
    expect(loadTable()).toMatchObject({ log: [], roundStartedAt: 0 });
  });

  it('reads malformed or refused storage as nothing, and never throws', () => {
    sessionStorage.setItem('yaniv-arena.table', '{"table": 3}');
    localStorage.setItem('yaniv-arena.advisor', 'not json');
    expect([loadTable(), loadAdvisor()]).toEqual([null, null]);
    Object.assign(globalThis, { sessionStorage: storage(true), localStorage: storage(true) });
    expect(() => {
      saveTable({ table: 't-1', token: 'x', rounds: [], log: [], roundStartedAt: 0 });
      saveToken('s3cret');
      saveAdvisor({ on: true, agent: 'strong' });
      forgetTable();
    }).not.toThrow();
    expect([loadTable(), loadToken(), loadAdvisor()]).toEqual([null, null, null]);
  });
});
