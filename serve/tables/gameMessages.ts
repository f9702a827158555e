/** What a table tells everyone at it when its game is over (every seat's `game_over`, on a resume too). */
import type { Msg } from '../protocol/protocol.js';
import type { TableGame } from './tableGame.js';

export function gameOverMessage(table: string, seed: number, game: TableGame): Msg<'game_over'> {
  return {
    type: 'game_over',
    table,
    counter: game.counter,
    winner: game.winner(),
    truncated: game.truncated,
    totals: Array.from(game.state.totals),
    record: game.record(),
    seed,
  };
}
