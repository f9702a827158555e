/**
 * What a new table is, from a client's create_table and the server's settings: its seats (each a
 * client, an agent this server plays, or a shipped `level:K` when it serves `level`), its rules
 * (the server's default rules when the request names neither preset nor rules), its think delay
 * and deadline, the model each bot plays at such a table (agents/resolve.ts, or a published
 * version) and the published model version each bot agent plays there to the end of the game.
 */
import { AgentSpecError } from '../../agents/registry.js';
import { resolveAgent } from '../../agents/resolve.js';
import { DEFAULT_PRESET, RuleError, resolveRules, ruleErrorField } from '../../env/index.js';
import { ProtocolError } from '../protocol/errors.js';
import type { ServerOptions } from '../options.js';
import type { TableKind } from '../../agents/resolve.js';
import type { ClientMessage, PlayedModel, SeatInfo } from '../protocol/protocol.js';
import type { TableSettings } from './tableRecord.js';

type CreateTable = Extract<ClientMessage, { type: 'create_table' }>;

/** What the policy reads of the server. */
export interface TablePolicyContext {
  readonly options: ServerOptions;
  /** The agents served, by name. */
  readonly agents: ReadonlySet<string>;
  /** The published version an agent plays now, or null (as the server started). */
  versionFor(agent: string): number | null;
  /** The trained model an agent plays now at a table of this kind, or null (an agent without one). */
  modelFor(agent: string, table: TableKind): PlayedModel | null;
}

/** A new table's settings before its id, token and (unless asked for) seed are drawn. */
export type NewTable = Omit<TableSettings, 'id' | 'token' | 'seed'> & { seed?: number };

/** The settings of the table a create_table asks for, and its rules as settled; throws ProtocolError naming the field. */
export function newTable(message: CreateTable, ctx: TablePolicyContext): { settings: NewTable; settled: Record<string, unknown> } {
  const { options } = ctx;
  const named = seatsOf(message.seats, ctx.agents, standInOf(message.standIn, ctx));
  const defaults = message.preset === undefined && message.rules === undefined;
  const preset = defaults ? options.preset : (message.preset ?? DEFAULT_PRESET);
  const rules = defaults ? options.rules : (message.rules ?? {});
  let settled: Record<string, unknown>;
  try {
    settled = { ...resolveRules({ preset, rules, players: named.length }) };
  } catch (error) {
    if (error instanceof RuleError) throw new ProtocolError('bad_message', error.message, ruleErrorField(preset));
    throw error;
  }
  const table = { preset, rules, players: named.length };
  named.forEach((seat) => checkLevel(seat, table));
  const seats = named.map((seat) => {
    const model = seat.agent === undefined ? null : ctx.modelFor(seat.agent, table);
    return model ? { ...seat, model } : seat;
  });
  const models = pinnedModels(seats, ctx);
  const settings: NewTable = {
    preset,
    rules,
    seats,
    ...(Object.keys(models).length > 0 ? { models } : {}),
    seed: message.seed,
    thinkMs: message.thinkMs ?? options.thinkMs,
    moveDeadlineMs: message.moveDeadlineMs === undefined ? options.moveDeadlineMs : message.moveDeadlineMs,
    maxTurns: options.maxTurns,
  };
  return { settings, settled };
}

/** Every rule option as settled for a table. */
export function settledRules(settings: TableSettings): Record<string, unknown> {
  return { ...resolveRules({ preset: settings.preset, rules: settings.rules, players: settings.seats.length }) };
}

/** `level:K`, which a server that serves `level` seats (the levels shipped for the table's rules and size). */
const isLevelSeat = (entry: string, agents: ReadonlySet<string>) => agents.has('level') && /^level:\d+$/.test(entry);

/** A level seat's level must ship for the table; else bad_message naming the seat. */
function checkLevel(seat: SeatInfo, table: TableKind): void {
  if (seat.agent === undefined || !seat.agent.startsWith('level:')) return;
  try {
    resolveAgent(seat.agent, table);
  } catch (error) {
    if (error instanceof AgentSpecError) throw new ProtocolError('bad_message', error.message, `seats[${seat.seat}]`);
    throw error;
  }
}

/** The bot that plays guest seats while nobody sits there: the one asked for, else the server's first agent. */
function standInOf(asked: string | undefined, ctx: TablePolicyContext): string {
  if (asked === undefined) return ctx.options.agents[0];
  if (!ctx.agents.has(asked) && !isLevelSeat(asked, ctx.agents))
    throw new ProtocolError(
      'bad_message',
      `${JSON.stringify(asked.slice(0, 60))} is not an agent this server plays (${[...ctx.agents].join(', ')})`,
      'standIn',
    );
  return asked;
}

function seatsOf(entries: readonly string[], agents: ReadonlySet<string>, standIn: string): SeatInfo[] {
  const seats = entries.map((entry, seat): SeatInfo => {
    if (entry === 'client') return { seat, player: 'client' };
    if (entry === 'guest') return { seat, player: 'guest', agent: standIn };
    if (!agents.has(entry) && !isLevelSeat(entry, agents))
      throw new ProtocolError(
        'bad_message',
        `${JSON.stringify(entry.slice(0, 60))} is neither "client", "guest" nor an agent this server plays (${[...agents].join(', ')})`,
        `seats[${seat}]`,
      );
    return { seat, player: 'bot', agent: entry };
  });
  if (!seats.some((s) => s.player === 'client')) throw new ProtocolError('bad_message', 'at least one seat must be "client"', 'seats');
  return seats;
}

/** The published model version each bot agent of the table plays (those with one). */
function pinnedModels(seats: readonly SeatInfo[], ctx: TablePolicyContext): Record<string, number> {
  const models: Record<string, number> = {};
  for (const seat of seats) {
    const version = seat.agent === undefined ? null : ctx.versionFor(seat.agent);
    if (seat.agent !== undefined && version !== null) models[seat.agent] = version;
  }
  return models;
}
