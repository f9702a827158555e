/**
 * What a new table is, from a client's create_table and the server's settings: its seats (each a
 * client, an agent this server plays, or `name:ARG` of a served agent whose row seats by argument,
 * `level:K`), its rules (the server's default rules when the request names neither preset nor
 * rules), its think delay and deadline, and what each bot plays at such a table, resolved once
 * (agents/resolve.ts, a published version among the model sources): the model it shows and the
 * published version it plays there to the end of the game.
 */
import { AgentSpecError, agentRow, parseAgentSpec } from '../../agents/registry.js';
import type { ResolvedAgent, TableKind } from '../../agents/resolve.js';
import { DEFAULT_PRESET, RuleError, resolveRules, ruleErrorField } from '../../env/index.js';
import { ProtocolError } from '../protocol/errors.js';
import type { ServerOptions } from '../options.js';
import { playedModelOf } from '../inference/models.js';
import type { ClientMessage, SeatInfo } from '../protocol/protocol.js';
import type { TableSettings } from './tableRecord.js';

type CreateTable = Extract<ClientMessage, { type: 'create_table' }>;

/** What the policy reads of the server. */
export interface TablePolicyContext {
  readonly options: ServerOptions;
  /** The agents served, by name. */
  readonly agents: ReadonlySet<string>;
  /** What an agent plays now at a table of this kind (a published version where one fits); throws AgentSpecError. */
  resolve(agent: string, table: TableKind): ResolvedAgent;
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
  const resolved = named.map((seat) => (seat.agent === undefined ? null : resolveSeat(seat, table, ctx)));
  const seats = named.map((seat, i) => {
    const model = resolved[i] === null ? null : playedModelOf(resolved[i]);
    return model ? { ...seat, model } : seat;
  });
  const models = pinnedModels(resolved);
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

/** `name:ARG` of a served agent whose row seats by argument (`level:K` when the server serves `level`). */
function seatsByArg(entry: string, agents: ReadonlySet<string>): boolean {
  try {
    const spec = parseAgentSpec(entry);
    return (
      agents.has(spec.name) && spec.arg !== undefined && Object.keys(spec.params).length === 0 && agentRow(spec.name).seatsByArg === true
    );
  } catch (error) {
    if (error instanceof AgentSpecError) return false;
    throw error;
  }
}

/** What a bot seat plays at the table; a seat that does not resolve there is bad_message naming the seat. */
function resolveSeat(seat: SeatInfo, table: TableKind, ctx: TablePolicyContext): ResolvedAgent {
  try {
    return ctx.resolve(seat.agent ?? '', table);
  } catch (error) {
    if (error instanceof AgentSpecError) throw new ProtocolError('bad_message', error.message, `seats[${seat.seat}]`);
    throw error;
  }
}

/** The bot that plays guest seats while nobody sits there: the one asked for, else the server's first agent. */
function standInOf(asked: string | undefined, ctx: TablePolicyContext): string {
  if (asked === undefined) return ctx.options.agents[0];
  if (!ctx.agents.has(asked) && !seatsByArg(asked, ctx.agents))
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
    if (!agents.has(entry) && !seatsByArg(entry, agents))
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

/** The published model version each bot agent of the table plays (those that resolved to one). */
function pinnedModels(resolved: readonly (ResolvedAgent | null)[]): Record<string, number> {
  const models: Record<string, number> = {};
  for (const agent of resolved) if (agent?.model?.kind === 'published') models[agent.requested] = agent.model.version;
  return models;
}
