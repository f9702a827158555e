/**
 * Play again with friends (create_table `follows`, issue 42): the people still at a table follow
 * its creator to the next one — each takes the same guest seat there at once, in its lobby, with
 * a token of its own, and is told next_table; a seat whose person left waits for the new invite.
 */
import { ProtocolError } from '../protocol/errors.js';
import type { Msg } from '../protocol/protocol.js';
import type { ServerTable, TableOwner } from './table.js';
import { guestName, newSeatToken } from './tableGuests.js';

export interface Follower {
  readonly seat: number;
  readonly owner: TableOwner;
  readonly token: string;
}

/** The table a create_table follows: only its creator may play it again with its guests (not_your_turn naming `follows`). */
export function followedBy(old: ServerTable, creator: TableOwner): ServerTable {
  if (old.owner !== creator)
    throw new ProtocolError('not_your_turn', 'only the creator of a table plays it again with its guests', 'follows');
  return old;
}

/** The guests still at `old` take their seats at `next` (each the same seat, when it is a free guest seat there); nothing is told yet. */
export function seatFollowers(old: ServerTable, next: ServerTable): Follower[] {
  const seated: Follower[] = [];
  const guests = [...(next.settings.guests ?? [])];
  for (const [seat, owner] of old.guests) {
    const free = next.settings.seats[seat]?.player === 'guest' && !guests.some((g) => g.seat === seat);
    if (!free || owner === old.owner || next.owners().includes(owner)) continue;
    const token = newSeatToken();
    guests.push({ seat, token, name: guestName(old.settings, seat) });
    next.guests.set(seat, owner);
    seated.push({ seat, owner, token });
  }
  if (seated.length > 0) next.resettle({ ...next.settings, guests });
  return seated;
}

/** What next_table tells of the new table besides the seat: as joined tells it. */
type NextTableInfo = Omit<Msg<'next_table'>, 'type' | 'follows' | 'token' | 'seat' | 'counter'>;

/** Each follower leaves `old` for its seat at `next`, told next_table with its own token. */
export function tellFollowers(old: ServerTable, next: ServerTable, followers: readonly Follower[], info: NextTableInfo): void {
  for (const { seat, token, owner } of followers)
    owner.follow(old, next, { type: 'next_table', follows: old.id, ...info, token, seat, counter: next.game.counter });
}
