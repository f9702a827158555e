// What the page says when something goes wrong (web/errorWords.ts): the engine's reason with its
// cards drawn as glyphs and what to do, and the server's troubles in plain words.
import { describe, expect, it } from 'vitest';
import type { Msg } from '../../serve/index.js';
import { cardsInGlyphs, withCardGlyphs } from '../../web/cards.js';
import { LOST_TABLE, connectionTrouble, refusal, serverTrouble, tokenPrompt } from '../../web/errorWords.js';

const CARD_CODE = /\b(?:[2-9]|10|[AJQK])[SHDC]\b|\bJK\b/;

const error = (code: Msg<'error'>['code'], message: string, reason?: string): Msg<'error'> => ({
  type: 'error',
  id: 3,
  code,
  message,
  ...(reason === undefined ? {} : { reason }),
});

describe('web/errorWords', () => {
  it('draws card codes as the page draws cards', () => {
    expect(withCardGlyphs('4D 6H is not a legal group')).toBe('4♦ 6♥ is not a legal group');
    expect(cardsInGlyphs(['10C', 'JK', 'QS', 'AH'])).toBe('10♣ ★ joker Q♠ A♥');
    expect(withCardGlyphs('a run needs three')).toBe('a run needs three');
  });

  it('says why a group is refused, in glyphs, and what to do instead', () => {
    const text = refusal(
      error(
        'illegal_action',
        'cards: discard 4D 6H is illegal: 4D 6H is not a legal group: two cards of different ranks are not a set, and a run needs three',
        '4D 6H is not a legal group: two cards of different ranks are not a set, and a run needs three',
      ),
    );
    expect(text).toMatch(/^Not allowed: 4♦ 6♥ is not a legal group: two cards of different ranks are not a set, and a run needs three\. /);
    expect(text).toMatch(/a set \(cards of one rank\) or a run \(3 or more in a row, one suit\)/);
    expect(text).not.toMatch(CARD_CODE);
  });

  it('says the server troubles in plain words, never with ids, tokens or counts of tables', () => {
    const full = serverTrouble(error('table_full', 'the server holds its maximum of 1 table; try again later'));
    expect(full).toMatch(/busy/);
    expect(full).not.toMatch(/maximum|tables/);
    const lost = serverTrouble(error('unknown_table', 'no table "t-abc" with that token (it may have expired)'));
    expect(lost).toBe(LOST_TABLE);
    expect(lost).not.toMatch(/t-abc|token/);
    const slow = serverTrouble(error('timed_out', "not decided within the server's deadline of 20000 ms: stopped, nothing applied"));
    expect(slow).toMatch(/took too long/);
    expect(slow).not.toMatch(/20000|deadline/);
    expect(serverTrouble(error('overloaded', '4096 inference requests are waiting'))).toMatch(/Too many requests/);
    expect(tokenPrompt(false)).toMatch(/password/);
    expect(tokenPrompt(true)).toMatch(/did not accept/);
  });

  it("starts a lost request's notice with a capital letter", () => {
    expect(connectionTrouble(new Error('the connection to the server was lost'))).toBe(
      'The connection to the server was lost: reconnecting…',
    );
    expect(connectionTrouble(new Error('not connected to the server.'))).toBe('Not connected to the server: reconnecting…');
  });
});
