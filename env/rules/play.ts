/** Playing whole games with a chooser of turns, writing the record as it goes. */
import { newGame, startRound } from './engine.js';
import { RecordWriter, type RecordJson } from './record.js';
import { DEFAULT_PRESET, type RuleOptionsInput, resolveRules } from './rules.js';
import { type GameState, PHASE_BETWEEN_ROUNDS, PHASE_GAME_OVER } from './state.js';
import { type TurnMove, legalTurns, playTurn } from './turns.js';

export interface PlayGameOptions {
  preset?: string;
  rules?: RuleOptionsInput;
  players: number;
  seed: number;
  /** Picks one of the legal turns. */
  choose: (state: GameState, turns: TurnMove[]) => TurnMove;
  /** Stops after this many turns in all (a guard for degenerate choosers). */
  maxTurns?: number;
}

export interface PlayedGame {
  state: GameState;
  record: RecordJson;
  turns: number;
}

export function playGame({ preset = DEFAULT_PRESET, rules = {}, players, seed, choose, maxTurns = Infinity }: PlayGameOptions): PlayedGame {
  let state = newGame({ rules: resolveRules({ preset, rules, players }), players, seed });
  const writer = new RecordWriter({ preset, rules, players });
  let turns = 0;
  while (state.phase !== PHASE_GAME_OVER && turns < maxTurns) {
    if (state.phase === PHASE_BETWEEN_ROUNDS) {
      startRound(state);
      writer.beginRound(state);
    }
    const move = choose(state, legalTurns(state));
    const played = playTurn(state, move);
    writer.addTurn(move, played.reshuffled);
    state = played.state;
    turns++;
  }
  return { state, record: writer.toJSON(), turns };
}
