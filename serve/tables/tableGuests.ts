/**
 * A table's guest seats (issue 42), as pure functions of its settings: who a token lets in, whether
 * an invite code opens the table, taking a free guest seat (new settings with the seat's own token),
 * and the seats as told to players. The table (serve/tables/table.ts) keeps who is connected.
 */
import { randomBytes } from 'node:crypto';
import { sameSecret } from '../../support/secret.js';
import { ProtocolError } from '../protocol/errors.js';
import type { SeatInfo } from '../protocol/protocol.js';
import type { TableSettings } from './tableRecord.js';

/** Who a token lets in at a table with these settings: its creator, a joined guest seat, or nobody. */
export function tokenRole(settings: TableSettings, token: string): 'creator' | number | null {
  if (sameSecret(token, settings.token)) return 'creator';
  return settings.guests?.find((g) => sameSecret(token, g.token))?.seat ?? null;
}

/** Whether an invite code opens this table (expired or not: `takeGuestSeat` says that). */
export function inviteOpens(settings: TableSettings, code: string): boolean {
  return settings.invite !== undefined && sameSecret(code, settings.invite.code);
}

/** The first guest seat nobody joined, taken for `name`: the new settings and the seat's own token; unknown_table naming the code when none is free or the invite expired. */
export function takeGuestSeat(
  settings: TableSettings,
  name: string | undefined,
  now: number,
): { settings: TableSettings; seat: number; token: string } {
  const { invite } = settings;
  if (!invite) throw new ProtocolError('unknown_table', `table ${settings.id} takes no guests`, 'code');
  if (invite.expiresAt <= now) throw new ProtocolError('unknown_table', 'the invite has expired: ask for a new one', 'code');
  const joined = new Set((settings.guests ?? []).map((g) => g.seat));
  const free = settings.seats.find((s) => s.player === 'guest' && !joined.has(s.seat));
  if (!free) throw new ProtocolError('unknown_table', 'every guest seat of this table is taken', 'code');
  const token = newSeatToken();
  const guest = { seat: free.seat, token, name: name ?? `Guest ${free.seat + 1}` };
  return { settings: { ...settings, guests: [...(settings.guests ?? []), guest] }, seat: free.seat, token };
}

/** A guest seat's own token (resume takes the seat back with it). */
export function newSeatToken(): string {
  return randomBytes(18).toString('base64url');
}

/** The name a guest seat's person gave; "Guest" and the seat number for a seat nobody joined. */
export function guestName(settings: TableSettings, seat: number): string {
  return settings.guests?.find((g) => g.seat === seat)?.name ?? `Guest ${seat + 1}`;
}

/** The seats as told to players: a guest seat with its person's name and whether they are here. */
export function seatsAsTold(settings: TableSettings, present: (seat: number) => boolean): SeatInfo[] {
  return settings.seats.map((info) => {
    if (info.player !== 'guest') return info;
    const guest = settings.guests?.find((g) => g.seat === info.seat);
    return { ...info, ...(guest ? { name: guest.name } : {}), present: present(info.seat) };
  });
}
