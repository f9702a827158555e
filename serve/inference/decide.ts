/**
 * The heavy work of the server, as pure functions of plain data so that it runs in a worker
 * thread (serve/inference/inferenceWorker.ts) or inline: an agent's decision for a seat, and for the
 * advisor its ranked actions, value and the Assaf risk of a Yaniv call, and the moves worth
 * weighing played out and judged (serve/inference/winChance.ts): the advice's `pick` is the
 * judged suggestion, `agentPick` what the agent alone plays.
 *
 * Everything starts from what the seat knows (a PlayerView). The legal actions come from a
 * determinised state (`determinize`): the mover's legal actions depend only on what the mover
 * knows, so any sampled world gives the same mask. The observation comes from the view alone
 * (`encodeView`). The Assaf risk is computed exactly from the view (`assafRisk`), the same number `strong` decides on.
 */
import {
  ACTION_COUNT,
  type GameState,
  MaskScratch,
  type PlayerView,
  PositionError,
  RecordError,
  RuleError,
  YANIV_ACTION,
  assafRisk,
  determinize,
  encodeView,
  importPosition,
  legalActionIds,
  playerView,
  seededRng,
  writeActionMask,
} from '../../env/index.js';
import type { Agent, DecisionInput } from '../../env/gym/agent.js';
import { agentAbilities } from '../../agents/registry.js';
import { type ResolvedAgent, type TableKind, createAgentFor } from '../../agents/resolve.js';
import { type Evaluation, outlookOf } from './winChance.js';
import { type TableHead, tableHead } from '../../agents/equity/headOutlook.js';
import { type MoveOutlook, OUTLOOK_DEFAULTS } from '../../agents/equity/moveOutlook.js';
import { ProtocolError } from '../protocol/errors.js';
import { describeLegal } from '../protocol/moves.js';
import type { AdvisedMove, LegalAction, RankedAction } from '../protocol/protocol.js';
import { viewFromJson } from '../protocol/viewJson.js';
import { parseViewJson } from '../protocol/protocolEdge.js';
import { type Advice, type AdviceReply, type DecideResult, encodeAdvice } from './adviceReply.js';

/**
 * Where the position comes from: a client's yaniv-view/1 (checked here, `parseViewJson`: off the
 * event loop when decided on a worker), a yaniv-position/1 and a seat, or a table's own view.
 */
export type PositionSource =
  | { readonly kind: 'view'; readonly view: unknown }
  | { readonly kind: 'position'; readonly position: unknown; readonly seat: number }
  | { readonly kind: 'playerView'; readonly view: PlayerView };

/**
 * An agent as a worker thread gets it, plain data: a resolved agent's spec (self-contained: it
 * resolves to the same model at its table) and the table it was resolved for.
 */
export interface PlayedAgent {
  readonly spec: string;
  readonly table: TableKind;
}

/** What crosses to a worker of a resolved agent. */
export function playedAgent(agent: ResolvedAgent): PlayedAgent {
  return { spec: agent.spec, table: agent.table };
}

export interface DecideRequest {
  readonly agent: PlayedAgent;
  readonly source: PositionSource;
  readonly seed: number;
  /** Advisor: describe and rank the actions and give the Assaf risk. */
  readonly explain: boolean;
  /** Advisor: play the moves worth weighing out (default true; the request's `outlook`). */
  readonly outlook?: boolean;
  /** Advisor: answer with the client's `advice` frame (`frame`) rather than the advice itself. */
  readonly reply?: AdviceReply;
  /** Advisor: the chance to win is not measured for rules whose equity is not known yet; this says why (serve/ruleSetBudget.ts). */
  readonly unmeasured?: string;
}

export type { ScoreKind } from '../../agents/registry.js';

export type { Advice, DecideResult } from './adviceReply.js';

const agents = new Map<string, Promise<Agent>>();

/** One agent per played spec and thread, created on first use (resolved again here: the same model at its table). */
export function agentFor(played: PlayedAgent): Promise<Agent> {
  let agent = agents.get(played.spec);
  if (!agent) {
    const created = createAgentFor(played.spec, played.table);
    agents.set(played.spec, created);
    created.catch(() => agents.delete(played.spec));
    agent = created;
  }
  return agent;
}

interface Prepared {
  readonly view: PlayerView;
  readonly input: DecisionInput;
}

const scratch = new MaskScratch();

/** The seat's view, its observation and its legal-action mask; throws ProtocolError. */
export function prepare(source: PositionSource, seed: number, explain: boolean): Prepared {
  const view = viewOf(source);
  if (view.current !== view.seat)
    throw new ProtocolError(
      'not_your_turn',
      `seat ${view.seat} is not to move: seat ${view.current} is`,
      source.kind === 'view' ? 'view.seat' : 'seat',
    );
  const world = determinize(view, seededRng(seed));
  const mask = new Uint8Array(ACTION_COUNT);
  if (writeActionMask(world, scratch, mask, 0) === 0)
    throw new ProtocolError(
      'bad_message',
      `seat ${view.seat} has no legal action in this position`,
      source.kind === 'position' ? 'position' : 'view',
    );
  return { view, input: new LazyInput(view, mask, explain) };
}

/**
 * A decision's input whose observation is encoded on first read: the rule bots never read it. A
 * class, not an object literal with a getter: each such literal has a getter of its own, so V8
 * gives it a map of its own, made in the old generation — a map per request, and the requests'
 * objects kept through young-generation collections (≈ 0.5 MB promoted a collection).
 */
class LazyInput implements DecisionInput {
  private encoded: Float32Array | undefined;

  constructor(
    readonly view: PlayerView,
    readonly mask: Uint8Array,
    readonly explain: boolean,
  ) {}

  get observation(): Float32Array {
    return (this.encoded ??= encodeView(this.view));
  }
}

function viewOf(source: PositionSource): PlayerView {
  if (source.kind === 'playerView') return source.view;
  if (source.kind === 'view') return viewFromJson(parseViewJson(source.view), 'view.');
  let state: GameState;
  try {
    state = importPosition(source.position).state;
  } catch (error) {
    if (error instanceof PositionError || error instanceof RecordError || error instanceof RuleError) {
      const field = error instanceof RecordError && error.field ? `position.record.${error.field}` : 'position';
      throw new ProtocolError('bad_message', error.message, field);
    }
    throw error;
  }
  if (source.seat >= state.players)
    throw new ProtocolError('bad_message', `seat ${source.seat} does not exist with ${state.players} players`, 'seat');
  if (state.phase > 2) throw new ProtocolError('bad_message', 'the position is not inside a round: no one is to move', 'position');
  return playerView(state, source.seat);
}

/** Decides a batch: table moves of agents with `actBatch` get one call per agent; advice and the other agents one call per request. */
export async function decideBatch(requests: readonly DecideRequest[]): Promise<DecideResult[]> {
  const results: DecideResult[] = new Array<DecideResult>(requests.length);
  const groups = new Map<string, { index: number; prepared: Prepared }[]>();
  requests.forEach((request, index) => {
    try {
      const prepared = prepare(request.source, request.seed, request.explain);
      const group = groups.get(request.agent.spec) ?? [];
      group.push({ index, prepared });
      groups.set(request.agent.spec, group);
    } catch (error) {
      results[index] = failure(error);
    }
  });
  for (const [spec, group] of groups) {
    let agent: Agent;
    const heads = new Map<number, TableHead | null>();
    try {
      agent = await agentFor(requests[group[0].index].agent);
      for (const { index, prepared } of group)
        if (requests[index].explain && requests[index].outlook !== false) heads.set(index, await tableHead(prepared.view));
    } catch (error) {
      for (const { index } of group) results[index] = failure(error);
      continue;
    }
    const decide = (index: number, prepared: Prepared, decision: ReturnType<Agent['act']>) => {
      try {
        results[index] = finish(requests[index], spec, prepared, decision, heads.get(index) ?? null);
      } catch (error) {
        results[index] = failure(error);
      }
    };
    // Advice goes one request at a time, each reset with its own seed: the same request gets the
    // same answer bit for bit, whatever else arrived with it (a batched inference differs from a
    // single one in the last digits, and one batch shares one seeded rng). Table moves batch.
    const batched = agent.actBatch ? group.filter(({ index }) => !requests[index].explain) : [];
    if (agent.actBatch && batched.length > 1) {
      agent.reset(requests[batched[0].index].seed);
      try {
        const decisions = agent.actBatch(batched.map((g) => g.prepared.input));
        batched.forEach(({ index, prepared }, i) => decide(index, prepared, decisions[i]));
      } catch (error) {
        for (const { index } of batched) results[index] = failure(error);
      }
    }
    for (const { index, prepared } of group) {
      if (batched.length > 1 && !requests[index].explain) continue;
      try {
        agent.reset(requests[index].seed);
        decide(index, prepared, agent.act(prepared.input));
      } catch (error) {
        results[index] = failure(error);
      }
    }
  }
  return results;
}

function finish(
  request: DecideRequest,
  spec: string,
  { view, input }: Prepared,
  decision: ReturnType<Agent['act']>,
  head: TableHead | null,
): DecideResult {
  if (!input.mask[decision.action]) throw new Error(`agent ${spec} chose the illegal action ${decision.action}`);
  if (!request.explain) return { ok: true, action: decision.action };
  const ids = legalActionIds(input.mask);
  const legal = ids.map((id) => describeLegal(view, id, view.drawn));
  const byId = new Map(legal.map((l) => [l.action, l]));
  const policy = decision.policy;
  const actions: RankedAction[] = policy
    ? policy.actions.map((id, i) => scored(byId.get(id) as LegalAction, policy.scores[i] + 0)) // + 0: no −0 (neither encoding keeps it)
    : [scored(byId.get(decision.action) as LegalAction, 0)];
  const value = policy?.value === undefined ? null : policy.value + 0;
  const agentPick = byId.get(decision.action) as LegalAction;
  const advice: { -readonly [K in keyof Advice]: Advice[K] } = {
    seat: view.seat,
    phase: view.phase as Advice['phase'],
    pick: agentPick,
    agentPick,
    actions,
    legal,
    scores: policy ? agentAbilities(spec).scores : 'none',
    value,
    assaf: input.mask[YANIV_ACTION] ? assafRisk(view) : null,
    win: null,
    winReason: NO_OUTLOOK,
  };
  if (request.outlook === false) return advised(request, decision.action, advice);
  const evaluation: Evaluation | undefined = head ? { table: head, observation: input.observation } : undefined;
  const outlook = outlookOf(
    view,
    ids,
    decision.action,
    policy?.actions ?? [],
    request.seed,
    OUTLOOK_DEFAULTS,
    request.unmeasured,
    evaluation,
  );
  const moves: AdvisedMove[] = outlook.moves.map((move) => advisedMove(byId.get(move.action) as LegalAction, move));
  // Set in place, not copied (`{ ...advice, pick, moves }`): such copies were kept through young
  // collections like the spreads `scored` replaces. The same fields in the same order.
  advice.pick = byId.get(moves[0].action) as LegalAction;
  advice.win = outlook.win;
  advice.winReason = outlook.winReason;
  advice.moves = moves;
  advice.worlds = outlook.worlds;
  return advised(request, advice.pick.action, advice);
}

/*
 * A ranked action and an advised move, each field named: neither a rest pattern (V8's slow path, ≈ 4
 * µs an advice) nor a spread of the legal action (`{ ...legal, score }`), whose copies V8 kept
 * through young-generation collections (with the advice's own spread: ≈ 820 KB promoted a scavenge
 * for explained advice against ≈ 270 KB; docs/design.md, "An eleventh pass"). Same fields, same order.
 */
function scored({ action, kind, cards, text }: LegalAction, score: number): RankedAction {
  return { action, kind, cards, text, score };
}

function advisedMove({ action, kind, cards, text }: LegalAction, { win, points, reasons, standing }: MoveOutlook): AdvisedMove {
  return { action, kind, cards, text, win, points, reasons, standing };
}

function advised(request: DecideRequest, action: number, advice: Advice): DecideResult {
  return request.reply ? { ok: true, action, frame: encodeAdvice(request.reply, advice) } : { ok: true, action, advice };
}

/** `winReason` when the request asked for no outlook. */
export const NO_OUTLOOK = 'not played out: the request said outlook: false';

function failure(error: unknown): DecideResult {
  if (error instanceof ProtocolError)
    return { ok: false, code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}) };
  return { ok: false, code: 'internal', message: error instanceof Error ? error.message : String(error) };
}
