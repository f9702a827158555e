// The TableStore contract (serve/tables/tableStore.ts), one suite run against every implementation
// (test/serve/tables/tableStore.test.ts): three stores sharing their tables stand for three server
// processes. Fencing on put, append and claim; the lost notice; expiry; release; remove; and, for a
// store that can go down, unavailability and the notice that it is back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TableSettings } from '../../../serve/tables/tableRecord.js';
import { StoreUnavailableError, type TableSnapshot, type TableStore } from '../../../serve/tables/tableStore.js';
import { until } from '../helpers.js';

/** Three stores over one set of tables, and how to take their backend down and up (where it can be). */
export interface SharedStores {
  readonly stores: readonly [TableStore, TableStore, TableStore];
  close(): Promise<void>;
  readonly outage?: { down(): void; up(): void };
}

/** A heads-up table's settings (a client against strong, published version 3 of strong), with these fields changed. */
export function sampleSettings(id: string, change: Partial<TableSettings> = {}): TableSettings {
  return {
    id,
    token: `token-of-${id}`,
    preset: 'standard',
    rules: { eliminationLimit: 40 },
    seats: [
      { seat: 0, player: 'client' },
      { seat: 1, player: 'bot', agent: 'strong' },
    ],
    seed: 1,
    thinkMs: 0,
    moveDeadlineMs: null,
    maxTurns: 1000,
    models: { strong: 3 },
    ...change,
  };
}

export function sampleSnapshot(id: string, change: Partial<TableSnapshot> = {}): TableSnapshot {
  return {
    settings: sampleSettings(id),
    moves: [],
    deadlineAt: null,
    expireAt: Date.now() + 60_000,
    ...change,
  };
}

let tableNumber = 0;
/** A fresh table id for each case (the stores are shared by the whole suite). */
const newId = () => `t-contract-${process.pid}-${++tableNumber}`;

export function tableStoreContract(name: string, open: () => Promise<SharedStores>): void {
  describe(`TableStore contract: ${name}`, () => {
    let shared: SharedStores;
    let a: TableStore;
    let b: TableStore;
    let c: TableStore;
    beforeAll(async () => {
      shared = await open();
      [a, b, c] = shared.stores;
    });
    afterAll(() => shared?.close());

    it("keeps a table's guest seats: its invite, each joined seat's token and name, and its lobby, rewritten whole on a join", async () => {
      const id = newId();
      const base = sampleSnapshot(id);
      const seats = [base.settings.seats[0], { seat: 1, player: 'guest' as const, agent: 'strong' }];
      const invite = { code: `${id}.secret`, expiresAt: Date.now() + 60_000 };
      const lobby = { ...base, settings: { ...base.settings, seats, invite, guests: [], lobby: true } };
      expect(await a.put({ id, fence: 1 }, lobby)).toBe('ok');
      const joined = { ...lobby, settings: { ...lobby.settings, guests: [{ seat: 1, token: 'seat-token', name: 'Dana' }], lobby: false } };
      expect(await a.put({ id, fence: 1 }, joined)).toBe('ok');
      expect(await b.load(id)).toEqual({ settings: joined.settings, fence: 1 });
      const claimed = await b.claim(id, 1);
      expect(claimed.outcome === 'ok' && claimed.snapshot.settings).toEqual(joined.settings);
    });

    it('is shared: a table one store writes, another loads and claims, with every step and deadline', async () => {
      const id = newId();
      const snapshot = sampleSnapshot(id, { moves: [12, 7], deadlineAt: Date.now() + 30_000 });
      expect(a.shared).toBe(true);
      expect(await a.put({ id, fence: 1 }, snapshot)).toBe('ok');
      expect(await a.append({ id, fence: 1 }, 2, [1352, 4], null, snapshot.expireAt)).toBe('ok');
      expect(await b.load(id)).toEqual({ settings: snapshot.settings, fence: 1 });
      const claimed = await b.claim(id, 1);
      expect(claimed).toEqual({
        outcome: 'ok',
        claim: { id, fence: 2 },
        snapshot: { ...snapshot, moves: [12, 7, 1352, 4], deadlineAt: null },
      });
    });

    it('fences: the owner that lost its claim has every write refused, and is told', async () => {
      const id = newId();
      const lost: [string, number][] = [];
      a.onLost((table, fence) => {
        if (table === id) lost.push([table, fence]);
      });
      expect(await a.put({ id, fence: 1 }, sampleSnapshot(id))).toBe('ok');
      expect((await b.claim(id, 1)).outcome).toBe('ok');
      expect(await a.append({ id, fence: 1 }, 0, [5], null, Date.now() + 60_000)).toBe('lost');
      expect(await a.put({ id, fence: 1 }, sampleSnapshot(id, { moves: [5] }))).toBe('lost');
      await until(() => lost.length > 0, 'the lost notice');
      expect(lost[0]).toEqual([id, 2]);
      // The new owner writes on.
      expect(await b.append({ id, fence: 2 }, 0, [5], null, Date.now() + 60_000)).toBe('ok');
    });

    it('a claim names the fence it saw: of two at once exactly one wins; an old fence conflicts', async () => {
      const id = newId();
      expect(await a.put({ id, fence: 1 }, sampleSnapshot(id))).toBe('ok');
      for (let round = 0; round < 10; round++) {
        const [seenB, seenC] = await Promise.all([b.load(id), c.load(id)]);
        expect(seenB?.fence).toBe(seenC?.fence);
        const results = await Promise.all([b.claim(id, seenB?.fence ?? 0), c.claim(id, seenC?.fence ?? 0)]);
        expect(results.map((r) => r.outcome).sort()).toEqual(['conflict', 'ok']);
      }
      expect((await a.claim(id, 1)).outcome).toBe('conflict');
    });

    it('an append must follow what the store holds; a table it does not hold is missing', async () => {
      const id = newId();
      expect(await a.append({ id, fence: 1 }, 0, [1], null, Date.now() + 60_000)).toBe('missing');
      expect(await a.put({ id, fence: 1 }, sampleSnapshot(id, { moves: [1, 2] }))).toBe('ok');
      expect(await a.append({ id, fence: 1 }, 1, [3], null, Date.now() + 60_000)).toBe('missing');
      expect(await a.append({ id, fence: 1 }, 2, [3], null, Date.now() + 60_000)).toBe('ok');
    });

    it('expiry: a table past its time is gone for load and claim; touch keeps it', async () => {
      const id = newId();
      expect(await a.put({ id, fence: 1 }, sampleSnapshot(id, { expireAt: Date.now() - 1 }))).toBe('ok');
      await until(async () => (await b.load(id)) === null, 'the expired table gone');
      expect(await b.claim(id, 1)).toEqual({ outcome: 'gone' });
      const kept = newId();
      expect(await a.put({ id: kept, fence: 1 }, sampleSnapshot(kept, { expireAt: Date.now() + 60_000 }))).toBe('ok');
      a.touch({ id: kept, fence: 1 }, Date.now() + 120_000);
      await a.load(kept); // after the touch on the same connection: the touch is written
      const claimed = await b.claim(kept, 1);
      expect(claimed.outcome === 'ok' && claimed.snapshot.expireAt).toBeGreaterThan(Date.now() + 60_000);
    });

    it('release hands a table over without a conflict; remove deletes it, but only for its owner', async () => {
      const id = newId();
      expect(await a.put({ id, fence: 1 }, sampleSnapshot(id))).toBe('ok');
      await a.release({ id, fence: 1 });
      const seen = await b.load(id);
      expect(seen?.fence).toBe(1);
      expect((await b.claim(id, 1)).outcome).toBe('ok');
      c.remove({ id, fence: 2 });
      a.remove({ id, fence: 1 });
      expect((await c.load(id))?.fence).toBe(2);
      b.remove({ id, fence: 2 });
      await until(async () => (await c.load(id)) === null, 'the removed table gone');
    });

    it('down: writes are unavailable and loads throw StoreUnavailableError; once back, listeners are told', async (context) => {
      const outage = shared.outage;
      if (!outage) return context.skip('this store cannot go down');
      const id = newId();
      let back = 0;
      a.onBack(() => back++);
      outage.down();
      await until(async () => (await a.put({ id, fence: 1 }, sampleSnapshot(id))) === 'unavailable', 'writes refused');
      expect(await a.append({ id, fence: 1 }, 0, [1], null, Date.now() + 60_000)).toBe('unavailable');
      await expect(a.load(id)).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(a.claim(id, 1)).rejects.toBeInstanceOf(StoreUnavailableError);
      outage.up();
      await until(() => back > 0, 'the back notice');
      expect(await a.put({ id, fence: 1 }, sampleSnapshot(id))).toBe('ok');
    });
  });
}
