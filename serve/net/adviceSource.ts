/**
 * What an advice request that names no table asks about, and the kind of table it is of: a
 * yaniv-view/1 the client sends (its own preset, rules and size) or a yaniv-position/1 document
 * (its record's head, checked here; the rest is decide's to check). A seat at one of the client's
 * tables is the connection's to read (its table's settings).
 */
import { z } from 'zod';
import type { TableKind } from '../../agents/resolve.js';
import { DEFAULT_PRESET, MIN_PLAYERS, recordSchema } from '../../env/index.js';
import type { PositionSource } from '../inference/decide.js';
import type { ClientMessageAtEdge } from '../protocol/protocol.js';

type AdviseAtEdge = Extract<ClientMessageAtEdge, { type: 'advise' }>;

/** The position a view or a position document gives, and the table it is of. */
export function sentPosition(message: AdviseAtEdge): { source: PositionSource; table: TableKind } {
  if (message.view !== undefined) {
    const { view } = message;
    return {
      source: { kind: 'view', view },
      table: { preset: view.preset ?? DEFAULT_PRESET, rules: view.rules ?? {}, players: view.players },
    };
  }
  return { source: { kind: 'position', position: message.position, seat: message.seat ?? 0 }, table: recordTable(message.position) };
}

/** The head of a yaniv-position/1 document's record: what table it is of (checked; the rest is decide's to check). */
const positionTableSchema = z.object({ record: recordSchema.pick({ preset: true, rules: true, players: true }) });

/**
 * The table a yaniv-position/1 document's record is of (its preset, overrides and size); the
 * default preset heads-up where its head is malformed: decide reports that, naming the field.
 */
function recordTable(position: unknown): TableKind {
  const parsed = positionTableSchema.safeParse(position);
  if (!parsed.success) return { preset: DEFAULT_PRESET, rules: {}, players: MIN_PLAYERS };
  const { preset, rules, players } = parsed.data.record;
  return { preset, rules, players };
}
