/**
 * Where `strong` and the trained bot disagree, and who is right (issue 44 item 5). Plays `neural`
 * (the shipped model of the table: models/standard heads-up, models/standard-4 at four seats)
 * against `strong` at every other seat, the neural seat rotating with the game, standard rules.
 * At every neural decision where its choice is not what `--strong` would play from the same view,
 * it records the position and judges the two moves: both are played on the SAME worlds drawn from
 * the seat's view (`determinize`, the environment's sampler, as `rollout` and the advice do), the
 * round played out by the strong playout (`playoutRoundStrong`) at every seat, and valued by the
 * seat's game equity at the round's end (the shipped equity: `leafEquity`, agents/equity/moveOutlook.ts).
 * The disagreements are grouped into kinds (`kindOf`); per kind: how many, the share where the
 * judge prefers neural's move, and the mean equity it gains over strong's (± its standard error).
 *
 *   node dist/scripts/strongDisagreements.js [--players 2,4] [--games 300] [--worlds 64] [--seed 44]
 *     [--player neural] [--strong strong] [--opponent strong] [--examples 4] [--out FILE.json]
 *
 * `--player` is the seat whose moves are compared (default the shipped model, "neural" in the
 * tables); with a variant of strong there (`--player 'strong?fix=NAME'`) the same judge screens a
 * fix of strong before it is benched: a positive mean gain says the fix's different moves are better.
 *
 * Prints the markdown table per table size; `--out` writes it as JSON with the worst examples of
 * each kind (the positions where neural's move gains most). Deterministic for a seed.
 */
import { parseArgs } from 'node:util';
import { writeFileSync } from 'node:fs';
import { z } from 'zod';
import { type Action, JOKER, type PlayerView, applyAction, cardName, cloneState, determinize, resolveRules } from '../env/index.js';
import type { Agent, Decision, DecisionInput } from '../env/gym/agent.js';
import { legalActionIds } from '../env/gym/actionMask.js';
import { actionToMove, describeAction } from '../env/gym/actionMoves.js';
import type { GameEquity } from '../env/gym/equity.js';
import { mixSeed, seededRng } from '../env/rules/random.js';
import { createAgentFor } from '../agents/resolve.js';
import { playMatch } from '../agents/tournament/match.js';
import { shippedEquityFor } from '../agents/equity/equity.js';
import { estimate, leafEquity } from '../agents/equity/moveOutlook.js';
import { playoutRoundStrong } from '../agents/bots/playout.js';
import { strongBot } from '../agents/bots/strong.js';
import { formsGroupWith, pointsOf, valuesOf } from '../agents/bots/tactics.js';

const optionsSchema = z.strictObject({
  players: z
    .string()
    .default('2,4')
    .transform((text) => text.split(',').map(Number))
    .pipe(z.array(z.number().int().min(2).max(8), { error: 'players must be table sizes from 2 to 8, comma-separated' })),
  games: z.coerce.number().int().positive().default(300),
  worlds: z.coerce.number().int().min(2).default(64),
  seed: z.coerce.number().int().default(44),
  player: z.string().default('neural'),
  strong: z.string().default('strong'),
  opponent: z.string().default('strong'),
  examples: z.coerce.number().int().min(0).default(4),
  out: z.string().optional(),
});
type Options = z.infer<typeof optionsSchema>;

/** A round the playout has not ended in this many turns is valued as it stands. */
const ROUND_TURN_CAP = 300;

interface Disagreement {
  kind: string;
  phase: string;
  /** The seat's hand, the cards on offer, the opponents' known cards and hand sizes, the totals. */
  hand: string[];
  offer: string[];
  known: string[][];
  handSizes: number[];
  totals: number[];
  neural: string;
  strong: string;
  /** The network's probability of its move minus that of strong's. */
  margin: number;
  /** Neural's move's equity minus strong's, the mean over the worlds, and its standard error. */
  gain: number;
  se: number;
}

/** Each move's equity in the same worlds drawn from the view: the paired difference (first − second), mean and standard error. */
function judge(view: PlayerView, first: Action, second: Action, equity: GameEquity, worlds: number, seed: number): [number, number] {
  const rng = seededRng(seed);
  const diffs: number[] = [];
  for (let w = 0; w < worlds; w++) {
    const world = determinize(view, rng);
    const [a, b] = [first, second].map((move) => {
      const s = cloneState(world);
      applyAction(s, move);
      playoutRoundStrong(s, ROUND_TURN_CAP);
      return leafEquity(s, view.seat, equity);
    });
    diffs.push(a - b);
  }
  const { mean, high } = estimate(diffs, -Infinity, Infinity);
  return [mean, (high - mean) / 1.96];
}

const names = (cards: readonly number[]) => cards.map(cardName);

/** A move's words: the cards laid or taken, "deck", "Yaniv". */
function words(move: Action): string {
  if (move.type === 'discard') return `lay ${names(move.cards).join(' ')}`;
  if (move.type === 'draw') return move.source === 'deck' ? 'deck' : `take ${cardName(move.source)}`;
  return move.type;
}

/** What kind of disagreement this is (the first that fits): see the script's table for the list. */
function kindOf(view: PlayerView, neural: Action, strong: Action, legal: readonly Action[]): string {
  if (neural.type === 'yaniv') return 'call: neural calls Yaniv, strong lays';
  if (strong.type === 'yaniv') return 'call: strong calls Yaniv, neural lays';
  const jokers = jokersKept(view, neural) - jokersKept(view, strong);
  if (jokers > 0) return 'joker: neural keeps or takes a joker that strong lays or passes';
  if (jokers < 0) return 'joker: strong keeps or takes a joker that neural lays or passes';
  const plain = { ...view, rules: { ...view.rules, milestones: [] } };
  if (words(strongBot()({ view: plain, legal, rng: seededRng(0) })) === words(neural))
    return "milestone: strong's milestone term decides (without it strong plays neural's move)";
  if (neural.type === 'discard' && strong.type === 'discard') return discardKind(view, neural.cards, strong.cards);
  if (neural.type === 'draw' && strong.type === 'draw') return drawKind(view, neural.source, strong.source);
  return `after the draw: neural ${neural.type}, strong ${strong.type}`;
}

/** The jokers the seat holds after a move (a deck draw counted as none). */
function jokersKept(view: PlayerView, move: Action): number {
  const count = (cards: readonly number[]) => cards.filter((card) => card === JOKER).length;
  if (move.type === 'discard') return count(view.hand) - count(move.cards);
  if (move.type === 'draw') return count(view.hand) + (move.source === JOKER ? 1 : 0);
  return count(view.hand);
}

function discardKind(view: PlayerView, neural: readonly number[], strong: readonly number[]): string {
  const values = valuesOf(view);
  if (neural.length > 1 && strong.length === 1) return 'discard: neural lays a group where strong lays a single card';
  if (neural.length === 1 && strong.length > 1) return 'discard: neural lays a single card, keeping a group strong lays';
  const [n, s] = [pointsOf(neural, values), pointsOf(strong, values)];
  if (n > s) return 'discard: neural lays more points';
  if (n < s) return 'discard: neural lays fewer points';
  return 'discard: the same points, other cards';
}

function drawKind(view: PlayerView, neural: number | 'deck', strong: number | 'deck'): string {
  const joins = (card: number) => formsGroupWith(view.hand, card, view);
  const what = (card: number) => (joins(card) ? 'a card that joins a group' : 'a card that joins nothing');
  if (neural === 'deck' && strong !== 'deck') return `draw: neural draws blind where strong takes ${what(strong)}`;
  if (neural !== 'deck' && strong === 'deck') return `draw: neural takes ${what(neural)} where strong draws blind`;
  if (neural === 'deck' || strong === 'deck') return 'draw: other';
  if (joins(neural) && !joins(strong)) return 'draw: neural takes a card that joins a group over one that joins nothing';
  if (!joins(neural) && joins(strong)) return 'draw: neural takes a card that joins nothing over one that joins a group';
  const values = valuesOf(view);
  return values[neural] < values[strong] ? 'draw: neural takes the lower of two cards' : 'draw: neural takes the higher of two cards';
}

/** The neural agent, recording every decision where `strong` (asked on the same input) would move otherwise. */
function recording(neural: Agent, strong: Agent, equity: GameEquity, options: Options, found: Disagreement[]): Agent {
  return {
    name: neural.name,
    reset(seed) {
      neural.reset(seed);
      strong.reset(seed);
    },
    act(input: DecisionInput): Decision {
      const decision = neural.act(input);
      const other = strong.act(input).action;
      if (other !== decision.action) found.push(disagreement(input, decision, other, equity, options, found.length));
      return decision;
    },
  };
}

function disagreement(
  input: DecisionInput,
  decision: Decision,
  other: number,
  equity: GameEquity,
  options: Options,
  n: number,
): Disagreement {
  const { view } = input;
  const legal = legalActionIds(input.mask).map((id) => actionToMove(view, id));
  const [neural, strong] = [decision.action, other].map((id) => actionToMove(view, id));
  const p = (id: number) => decision.policy?.scores[decision.policy.actions.indexOf(id)] ?? 0;
  const [gain, se] = judge(view, neural, strong, equity, options.worlds, mixSeed(options.seed, 3, n));
  return {
    kind: kindOf(view, neural, strong, legal),
    phase: view.phase,
    hand: names(view.hand),
    offer: names(view.previous.pickable),
    known: view.known.map(names),
    handSizes: [...view.handSizes],
    totals: [...view.totals],
    neural: describeAction(decision.action, view),
    strong: describeAction(other, view),
    margin: p(decision.action) - p(other),
    gain,
    se,
  };
}

interface KindRow {
  kind: string;
  count: number;
  /** Share of the positions where the judge's mean favours neural's move, and where it does by more than two standard errors. */
  neuralBetter: number;
  neuralSurelyBetter: number;
  strongSurelyBetter: number;
  /** Mean equity neural's move gains over strong's, with the standard error over the positions. */
  meanGain: number;
  gainSe: number;
  examples: Disagreement[];
}

function tableOf(found: readonly Disagreement[], examples: number): KindRow[] {
  const kinds = [...new Set(found.map((d) => d.kind))];
  return kinds
    .map((kind) => {
      const rows = found.filter((d) => d.kind === kind);
      const { mean, high } = estimate(
        rows.map((d) => d.gain),
        -Infinity,
        Infinity,
      );
      const share = (test: (d: Disagreement) => boolean) => rows.filter(test).length / rows.length;
      return {
        kind,
        count: rows.length,
        neuralBetter: share((d) => d.gain > 0),
        neuralSurelyBetter: share((d) => d.gain > 2 * d.se),
        strongSurelyBetter: share((d) => d.gain < -2 * d.se),
        meanGain: mean,
        gainSe: (high - mean) / 1.96,
        examples: [...rows].sort((a, b) => b.gain - a.gain).slice(0, examples),
      };
    })
    .sort((a, b) => b.count * b.meanGain - a.count * a.meanGain);
}

/** Plays the games of one table size; returns the disagreements and how many neural decisions there were. */
async function playTable(players: number, options: Options): Promise<{ found: Disagreement[]; decisions: number; games: number }> {
  const table = { preset: 'standard', players };
  const rules = resolveRules({ preset: 'standard', players });
  const equity = shippedEquityFor(rules, players);
  if (!equity) throw new Error(`no game equity ships for standard at ${players} players`);
  const neural = await createAgentFor(options.player, table);
  const judgeStrong = await createAgentFor(options.strong, table);
  const opponents = await Promise.all(Array.from({ length: players - 1 }, () => createAgentFor(options.opponent, table)));
  const found: Disagreement[] = [];
  let decisions = 0;
  const counted: Agent = recording(neural, judgeStrong, equity, options, found);
  const seat: Agent = { ...counted, act: (input) => (decisions++, counted.act(input)) };
  for (let game = 0; game < options.games; game++) {
    const at = game % players;
    const agents = [...opponents.slice(0, at), seat, ...opponents.slice(at)];
    playMatch({
      rules,
      preset: 'standard',
      overrides: {},
      agents,
      episode: 'game',
      dealSeed: mixSeed(options.seed, 1, game),
      agentSeed: mixSeed(options.seed, 2, game),
    });
    if ((game + 1) % 50 === 0) process.stderr.write(`${players} seats: ${game + 1} games, ${found.length} disagreements\n`);
  }
  return { found, decisions, games: options.games };
}

function markdown(players: number, decisions: number, found: number, rows: readonly KindRow[]): string {
  const pct = (x: number) => `${(100 * x).toFixed(0)}%`;
  const lines = [
    `### ${players} seats: ${found} disagreements in ${decisions} neural decisions`,
    '| kind | count | judge prefers neural | surely neural / surely strong | mean equity gained by neural (± se) |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.kind} | ${r.count} | ${pct(r.neuralBetter)} | ${pct(r.neuralSurelyBetter)} / ${pct(r.strongSurelyBetter)} | ${(100 * r.meanGain).toFixed(2)} (± ${(100 * r.gainSe).toFixed(2)}) pts of P(win) |`,
    ),
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: Object.fromEntries(Object.keys(optionsSchema.shape).map((key) => [key, { type: 'string' }])),
  });
  const parsed = optionsSchema.safeParse(values);
  if (!parsed.success) {
    process.stderr.write(`strongDisagreements: ${z.prettifyError(parsed.error)}\n`);
    process.exit(2);
  }
  const options = parsed.data;
  const report: Record<string, unknown> = { options };
  for (const players of options.players) {
    const { found, decisions, games } = await playTable(players, options);
    const rows = tableOf(found, options.examples);
    report[`${players}`] = { games, decisions, disagreements: found.length, kinds: rows };
    process.stdout.write(`${markdown(players, decisions, found.length, rows)}\n\n`);
  }
  if (options.out) writeFileSync(options.out, `${JSON.stringify(report, null, 1)}\n`);
}

await main();
