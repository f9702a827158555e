// The per-address shares on a clock the test moves: the message budget all connections of an
// address share, kept after its last connection closes until it is full again, and how many
// such budgets are kept.
import { describe, expect, it } from 'vitest';
import { AddressShares, RESTING_ADDRESSES, TokenBucket } from '../../../serve/net/addressShares.js';

/** A clock that moves only when told. */
function clock(): { now: () => number; pass: (ms: number) => void } {
  let time = 1_000_000;
  return { now: () => time, pass: (ms) => (time += ms) };
}

/** How many messages the budget takes now, up to `most`. */
function drain(bucket: TokenBucket, most = 1_000_000): number {
  let taken = 0;
  while (taken < most && bucket.take()) taken++;
  return taken;
}

describe('AddressShares', () => {
  it('counts connections per address and shares one budget among them', () => {
    const time = clock();
    const shares = new AddressShares(10, time.now);
    const [a, b] = [shares.add('10.0.0.1'), shares.add('10.0.0.1')];
    expect(shares.connections('10.0.0.1')).toBe(2);
    expect(a.messages).toBe(b.messages);
    expect(drain(a.messages)).toBe(10);
    expect(drain(shares.add('10.0.0.2').messages)).toBe(10);
    a.release();
    a.release();
    expect(shares.connections('10.0.0.1')).toBe(2 - 1);
  });

  it('an address that closes its last connection and comes back gets the budget it left, not a fresh one; full again after a second', () => {
    const time = clock();
    const shares = new AddressShares(10, time.now);
    const first = shares.add('10.0.0.1');
    expect(drain(first.messages)).toBe(10);
    first.release();
    expect(shares.connections('10.0.0.1')).toBe(0);
    // Before, the address was forgotten with its last connection: a new one had 10 at once.
    const second = shares.add('10.0.0.1');
    expect(drain(second.messages)).toBe(0);
    time.pass(300);
    expect(drain(second.messages)).toBe(3);
    second.release();
    time.pass(1000);
    expect(drain(shares.add('10.0.0.1').messages)).toBe(10);
  });

  it(`keeps at most ${RESTING_ADDRESSES} resting budgets: past that, the one left longest ago is forgotten`, () => {
    const time = clock();
    const shares = new AddressShares(5, time.now);
    const leave = (address: string) => {
      const seat = shares.add(address);
      drain(seat.messages);
      seat.release();
    };
    for (let i = 0; i < RESTING_ADDRESSES; i++) leave(`address-${i}`);
    leave('one more');
    expect(drain(shares.add('address-0').messages)).toBe(5);
    expect(drain(shares.add('address-1').messages)).toBe(0);
    expect(drain(shares.add('one more').messages)).toBe(0);
  });
});
