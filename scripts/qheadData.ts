// Positions for the model's own evaluation (its q head, agents/equity/qHead.ts), with the teacher's
// figures: whole games at one table size, `neural` (the table's shipped model) and `strong` seats
// alternating, and at a sampled share of the decisions the moves worth weighing (up to six:
// outlookCandidates) played out by the judge with a large budget (32 worlds, the teacher) and
// with the advice's own budget (8 worlds, to compare against), each chance to win as played out
// (no calibration map), and the game's outcome for the seat. One JSON line a position, written a
// game at a time, so a run killed part way resumes after its last whole game:
//   node dist/scripts/qheadData.js PLAYERS GAMES OUT.jsonl
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { type MoveOutlook, moveOutlooks, outlookCandidates } from '../agents/equity/moveOutlook.js';
import { equityForTable } from '../agents/equity/equityPlayouts.js';
import { createAgentFor } from '../agents/resolve.js';
import { playMatch } from '../agents/tournament/match.js';
import type { Agent, DecisionInput } from '../env/gym/agent.js';
import { legalActionIds } from '../env/gym/actionMask.js';
import { actionContextOfView } from '../env/gym/actionFeatures.js';
import { mixSeed, randomInt, seededRng } from '../env/rules/random.js';
import { resolveRules } from '../env/rules/rules.js';
import { type QHeadSample, sparseObservation } from '../agents/equity/qHeadData.js';
import { roundStartEquity } from '../agents/equity/qHead.js';

const TEACHER_WORLDS = 32;
const JUDGE_WORLDS = 8;
const CANDIDATES = 6;
/** The share of decisions sampled (fewer late in a game, where one game gives many alike). */
const SAMPLED = 0.12;
const SEED = 0x41_02;

const [playersText, gamesText, out] = process.argv.slice(2);
const players = Number(playersText);
const games = Number(gamesText);
if (!Number.isInteger(players) || !Number.isInteger(games) || !out) {
  process.stderr.write('usage: node dist/scripts/qheadData.js PLAYERS GAMES OUT.jsonl\n');
  process.exit(2);
}

/** The next game to play: one after the last whole game written. */
function resumeAt(file: string): number {
  if (!existsSync(file)) return 0;
  const lines = readFileSync(file, 'utf8').trim().split('\n').filter(Boolean);
  return lines.length === 0 ? 0 : (JSON.parse(lines[lines.length - 1]) as QHeadSample).game + 1;
}

const rules = resolveRules({ preset: 'standard', players });
const table = { preset: 'standard', players };
const { equity } = equityForTable(rules, players);
const neural = await createAgentFor('neural', table);
const strong = await createAgentFor('strong', table);

function figures(moves: MoveOutlook[]): { win: number[]; points: number[] } {
  return { win: moves.map((m) => m.win?.mean ?? 0), points: moves.map((m) => m.points.mean) };
}

/** A seat's agent that, at a sampled share of its decisions, records the position and the teacher's figures. */
function recording(agent: Agent, game: number, samples: Omit<QHeadSample, 'won'>[], rng: () => number): Agent {
  return {
    name: agent.name,
    reset: (seed) => agent.reset(seed),
    act(input: DecisionInput) {
      const decision = agent.act(input);
      const legal = legalActionIds(input.mask);
      if (legal.length < 2 || rng() >= SAMPLED) return decision;
      const ranked = neural.act({ ...input, explain: true }).policy?.actions ?? [];
      const { view } = input;
      const candidates = outlookCandidates(view, legal, decision.action, ranked, CANDIDATES);
      const seed = mixSeed(SEED, game, view.turn, view.seat);
      const teacher = figures(moveOutlooks(view, candidates, equity, seed, { worlds: TEACHER_WORLDS }));
      const judged = figures(moveOutlooks(view, candidates, equity, mixSeed(seed, 8), { worlds: JUDGE_WORLDS }));
      const context = Array.from(actionContextOfView(view));
      const roundStart = equity ? roundStartEquity(view, equity) : 0.5;
      const observation = sparseObservation(input.observation);
      samples.push({ game, players, seat: view.seat, phase: view.phase, ...observation, context, roundStart, candidates, teacher, judged });
      return decision;
    },
  };
}

const started = performance.now();
let positions = 0;
for (let game = resumeAt(out); game < games; game++) {
  const samples: Omit<QHeadSample, 'won'>[] = [];
  const pick = seededRng(mixSeed(SEED, 1, game));
  const rng = () => randomInt(pick, 0, 9999) / 10_000;
  const agents = Array.from({ length: players }, (_, seat) => recording((seat + game) % 2 === 0 ? neural : strong, game, samples, rng));
  const result = playMatch({
    rules,
    preset: 'standard',
    overrides: {},
    agents,
    episode: 'game',
    dealSeed: mixSeed(SEED, 2, game),
    agentSeed: mixSeed(SEED, 3, game),
  });
  const lines = samples.map((s) => JSON.stringify({ ...s, won: s.seat === result.winner }) + '\n');
  appendFileSync(out, lines.join(''));
  positions += lines.length;
  if (game % 10 === 9)
    console.log(
      `${players} seats: game ${game + 1}/${games}, ${positions} positions this run, ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
}
