/**
 * What the page says when something goes wrong, in a player's words: a move the rules refuse
 * (its cards drawn as the page draws them, and what to do instead), a server that is full, a
 * table that cannot be taken back, a server that wants a token. The server's messages are
 * written for developers (serve/PROTOCOL.md, "Errors"); the page reads their `code`, never
 * their text, except the engine's `reason`, whose card codes it redraws.
 */
import { withCardGlyphs } from './cards.js';
import type { Msg } from '../client/protocol.js';

/** What to do after a refused group, by the engine's reason. */
const GROUP_TIPS: readonly (readonly [RegExp, string])[] = [
  [
    /not a legal group|not a legal run|a run needs/,
    'Lay one card, a set (cards of one rank) or a run (3 or more in a row, one suit); tap a card to unpick it.',
  ],
  [/only at the start of a turn|only after laying/, 'Wait for your turn: first lay cards, then draw.'],
];

/** The server's refusal of a move, for the player: the reason with its cards in glyphs, and what to do. */
export function refusal(error: Msg<'error'>): string {
  if (error.code === 'illegal_action' && error.reason !== undefined) {
    const tip = GROUP_TIPS.find(([pattern]) => pattern.test(error.reason ?? ''))?.[1];
    return `Not allowed: ${withCardGlyphs(error.reason)}.${tip === undefined ? '' : ` ${tip}`}`;
  }
  return serverTrouble(error);
}

/** Errors that are no fault of the player's move, in plain words. */
export function serverTrouble(error: Pick<Msg<'error'>, 'code' | 'message'>): string {
  switch (error.code) {
    case 'table_full':
      return 'The server is busy: it already has as many games going as it can hold. Try again in a few minutes, or finish a game in another tab first.';
    case 'draining':
    case 'table_moved':
    case 'store_unavailable':
      return 'The server is restarting. Wait a moment and try again.';
    case 'rate_limited':
    case 'overloaded':
      return 'Too many requests at once. Wait a moment and try again.';
    case 'timed_out':
      return 'The server took too long to answer that and gave up. Try again; if it happens again, try simpler house rules.';
    case 'unknown_table':
      return LOST_TABLE;
    default:
      return `The server could not do that: ${error.message}.`;
  }
}

/** A lost request (the connection dropped before its answer), for the player: a sentence, then that the page reconnects. */
export function connectionTrouble(error: Error): string {
  const text = error.message.replace(/[.\s]+$/, '');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}: reconnecting…`;
}

/** A table the server no longer has (restarted, expired), said without ids or tokens. */
export const LOST_TABLE = 'Your game could not be continued: the server no longer has it (it was restarted, or the game waited too long).';

/** Why the page shows the token form: asked for the first time, or the one given was refused. */
export function tokenPrompt(given: boolean): string {
  return given
    ? 'The server did not accept that password. Check it with whoever runs the server, and try again.'
    : 'This server asks for a password (its access token) before you can play. Whoever runs the server can give it to you.';
}

/** The creator of a friends' table left it: the table is closed for everyone. */
export const HOST_LEFT = 'The host left the table, so this game is over.';

/** A join the server refused: an invite that no longer opens a seat, said as what to do. */
export function joinTrouble(error: Pick<Msg<'error'>, 'code' | 'message'>): string {
  if (error.code !== 'unknown_table') return serverTrouble(error);
  return 'This invite no longer opens a seat: it expired, every friend’s seat is taken, or the game is over. Ask your friend for a new link.';
}
