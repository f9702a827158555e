// Engine throughput: random legal whole turns (generate the legal moves, pick one, apply it)
// over full games under the standard rules, 4 players, one thread.
import { DiscardList } from '../env/rules/discards.js';
import { GROUP_CAP } from '../env/rules/groups.js';
import {
  callYaniv,
  canCallYaniv,
  canDrawFromDeck,
  canQuickDiscard,
  canSlapDown,
  drawFromDeck,
  drawFromPrevious,
  layGroup,
  legalDiscards,
  newGame,
  passAfterDraw,
  quickDiscard,
  slapDown,
  startRound,
} from '../env/rules/engine.js';
import { randomInt, seededRng, type Rng } from '../env/rules/random.js';
import { resolveRules } from '../env/rules/rules.js';
import { type GameState, type Phase, PHASE_AFTER_DRAW, PHASE_BETWEEN_ROUNDS, PHASE_DRAW, PHASE_GAME_OVER } from '../env/rules/state.js';

const list = new DiscardList();
const drawChoices = new Int16Array(GROUP_CAP + 1);

/** One whole turn, each decision uniform over the legal choices. */
function randomTurn(s: GameState, rng: Rng): void {
  if (s.phase === PHASE_BETWEEN_ROUNDS) startRound(s);
  legalDiscards(s, list);
  const canCall = canCallYaniv(s) ? 1 : 0;
  const pick = randomInt(rng, 0, list.count + canCall - 1);
  if (pick === list.count) return callYaniv(s);
  layGroup(s, list.cards, list.length[pick], list.groupType(pick), pick * GROUP_CAP);
  if (s.phase !== PHASE_DRAW) return;
  let n = 0;
  if (canDrawFromDeck(s)) drawChoices[n++] = -1;
  for (let i = 0; i < s.prevLength; i++) {
    if ((s.prevPickable >> i) & 1) drawChoices[n++] = s.prev[i];
  }
  const draw = drawChoices[randomInt(rng, 0, n - 1)];
  if (draw < 0) drawFromDeck(s);
  else drawFromPrevious(s, draw);
  if ((s.phase as Phase) === PHASE_AFTER_DRAW) afterDraw(s, rng);
}

function afterDraw(s: GameState, rng: Rng): void {
  if (canSlapDown(s) && randomInt(rng, 0, 1) === 1) return slapDown(s);
  if (canQuickDiscard(s) && randomInt(rng, 0, 1) === 1) return quickDiscard(s);
  passAfterDraw(s);
}

export interface EngineBenchResult {
  turns: number;
  games: number;
  seconds: number;
}

export function measureEngine(seconds: number, players = 4, seed = 1): EngineBenchResult {
  const rules = resolveRules({ players });
  const rng = seededRng(seed);
  let games = 0;
  let turns = 0;
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(Math.round(seconds * 1e9));
  let s = newGame({ rules, players, seed: seed + games });
  while (process.hrtime.bigint() < deadline) {
    for (let k = 0; k < 1000; k++) {
      if (s.phase === PHASE_GAME_OVER) {
        games++;
        s = newGame({ rules, players, seed: seed + games });
      }
      randomTurn(s, rng);
      turns++;
    }
  }
  return { turns, games, seconds: Number(process.hrtime.bigint() - start) / 1e9 };
}

export function run(): void {
  measureEngine(0.5);
  const r = measureEngine(3);
  console.log(`random whole turns: ${(r.turns / r.seconds / 1e6).toFixed(2)} M moves/s (standard rules, 4 players, ${r.turns} turns)`);
  console.log(
    `full games:         ${(r.games / r.seconds).toFixed(0)} games/s (${(r.turns / Math.max(1, r.games)).toFixed(0)} turns per game)`,
  );
}
