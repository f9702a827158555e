// The rules of docs/RULES.md, one `describe` per section, written with cards as
// people write them. Positions are dealt exactly (helpers.ts): hands, the turned-up card and
// the deck top first; turns are lines such as "AS 2S 3S / deck" or "9C 9D / 3S".
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  PHASE_BETWEEN_ROUNDS,
  PHASE_GAME_OVER,
  PRESET_NAMES,
  RULE_OPTION_NAMES,
  RuleError,
  type RuleOptionsInput,
  GROUP_TYPE_NAMES,
  classifyLaid,
  deckComposition,
  fullDeck,
  handValue,
  newGame,
  parseCard,
  playTurn,
  resolveRules,
  rulesJson,
  seededRng,
  shuffleInPlace,
  startRound,
  valueTable,
} from '../../../env/index.js';
import { scoreRound, totalsAfterRound } from '../../../env/rules/scoring.js';
import {
  type DealText,
  type DealTable,
  card,
  cards,
  discards,
  game,
  handText,
  play,
  previous,
  redeal,
  showdown,
  takeable,
  text,
  turn as parseTurn,
  turns,
  why,
} from '../helpers.js';

const STANDARD = resolveRules({ players: 3 });

/** Three players, the position of RECORD.md's example. */
const EXAMPLE: DealText = {
  hands: ['AS 2S 3S KH KD', '9C 9D 4H 5H JK', 'AC AD 2C 2H JK'],
  discard: '7H',
  deck: '6C 9H 5D JS',
};

describe('Cards', () => {
  it.each([
    ['10h', '10H'],
    ['qs', 'QS'],
    ['Ac', 'AC'],
    ['jk', 'JK'],
    ['2d', '2D'],
    ['KH', 'KH'],
  ])('%s is read as %s (parsers accept lower case, printers write upper case)', (written, printed) => {
    expect(text([parseCard(written) as number])).toBe(printed);
  });

  it.each(['1S', '11H', 'JJ', 'KX', '10', 'S', '', ' AS', 'JKS', 'T9'])('%j is not a card', (written) => {
    expect(parseCard(written)).toBeUndefined();
  });

  it.each([
    ['AS', 1],
    ['2H', 2],
    ['9D', 9],
    ['10C', 10],
    ['JS', 10],
    ['QH', 10],
    ['KD', 10],
    ['JK', 0],
  ])('%s is worth %i', (name, value) => {
    expect(valueTable(10)[card(name)]).toBe(value);
  });

  it.each([[0], [5], [10]])('jackValue %i changes the jacks and nothing else', (jackValue) => {
    const values = valueTable(jackValue);
    expect(cards('JS JH JD JC').map((c) => values[c])).toEqual([jackValue, jackValue, jackValue, jackValue]);
    expect(cards('10S QS KS AS JK').map((c) => values[c])).toEqual([10, 10, 10, 1, 0]);
  });

  it.each([
    [1, 0, 52],
    [1, 2, 54],
    [1, 4, 56],
    [2, 0, 104],
    [2, 2, 108],
    [2, 4, 112],
  ])('%i deck(s) with %i jokers each hold %i cards, every natural card once per deck', (decks, jokers, total) => {
    expect(fullDeck(decks, jokers)).toHaveLength(total);
    const composition = deckComposition(decks, jokers);
    for (const name of ['AS', '10H', 'QD', 'KC']) expect(composition[card(name)]).toBe(decks);
    expect(composition[card('JK')]).toBe(decks * jokers);
  });

  it('with two decks two equal cards are interchangeable: one single, one pair', () => {
    const s = game({ hands: ['8H 8H 3C', 'KS KD QC'], discard: '5D', deck: '9S' }, { rules: { decks: 2 } });
    expect(discards(s)).toEqual(['8H', '3C', '8H 8H']);
    const after = play(s, '8H / deck');
    expect(handText(after, 0)).toBe('9S 8H 3C');
  });
});

describe('Set-up', () => {
  it('deals handSize cards one at a time clockwise from the left of the dealer, then turns up the next card', () => {
    for (const [players, handSize] of [
      [3, 5],
      [4, 3],
      [8, 7],
    ] as const) {
      const rules = resolveRules({ players, rules: { handSize } });
      const s = newGame({ rules, players, seed: 42 });
      startRound(s);
      // The same shuffle by hand: the deck top is the end of the shuffled array.
      const shuffled = fullDeck(rules.decks, rules.jokersPerDeck);
      shuffleInPlace(seededRng(42), shuffled);
      const top = shuffled.reverse();
      expect(s.dealer).toBe(players - 1);
      expect(s.current).toBe(0);
      for (let seat = 0; seat < players; seat++) {
        const dealt = Array.from({ length: handSize }, (_, i) => top[i * players + seat]);
        expect(handText(s, seat)).toBe(text(dealt.sort((a, b) => a - b)));
      }
      expect(previous(s)).toBe(text([top[players * handSize]]));
      expect(s.deckLength).toBe(top.length - players * handSize - 1);
      expect(s.deck[s.deckLength - 1]).toBe(top[players * handSize + 1]);
    }
  });

  it('in round 2 the dealer is seat 0, so seat 1 gets the first card and starts', () => {
    const s = play(game(EXAMPLE), 'AS 2S 3S / deck', '9C 9D / 3S', 'yaniv');
    startRound(s);
    const shuffled = fullDeck(1, 2);
    shuffleInPlace(seededRng(1), shuffled); // the deal of round 1 was written out: the PRNG is untouched
    const top = shuffled.reverse();
    expect([s.dealer, s.current]).toEqual([0, 1]);
    expect(handText(s, 1)).toBe(text([0, 3, 6, 9, 12].map((i) => top[i]).sort((a, b) => a - b)));
    expect(handText(s, 0)).toBe(text([2, 5, 8, 11, 14].map((i) => top[i]).sort((a, b) => a - b)));
  });

  it.each([[1], [9], [0], [2.5]])('%d players is not a table', (players) => {
    expect(() => resolveRules({ players })).toThrow(/players must be an integer from 2 to 8/);
  });

  it.each([[2], [5], [8]])('%i players is a table', (players) => {
    expect(resolveRules({ players }).handSize).toBe(5);
  });

  it('play goes clockwise and skips eliminated seats', () => {
    //   seat 0 ── seat 1 ── (seat 2 out) ── seat 3 ── back to seat 0
    const s = game({ hands: ['KS QS', 'KH QH', null, 'KD QD'], discard: '7C', deck: '2C 3C 4C 5C', starter: 1 });
    expect(s.current).toBe(1);
    const seats = [s.current];
    let t = s;
    for (const line of ['KH / deck', 'KD / deck', 'KS / deck']) {
      t = play(t, line);
      seats.push(t.current);
    }
    expect(seats).toEqual([1, 3, 0, 1]);
  });
});

describe('A turn', () => {
  it('a player may call Yaniv with a hand worth up to yanivThreshold', () => {
    const s = play(game(EXAMPLE), 'AS 2S 3S / deck', '9C 9D / 3S');
    expect(handValue(s, 2)).toBe(6);
    expect(turns(s)).toContain('yaniv');
    expect(showdown(s, 'yaniv')).toMatchObject({ caller: 2, outcome: 'yaniv' });
  });

  it.each([
    ['AS 2S 4D', 7, null],
    ['AS 2S 5D', 8, 'seat 0 cannot call Yaniv with 8 > 7'],
    ['KH KD 6C', 26, 'seat 0 cannot call Yaniv with 26 > 7'],
  ])('hand %s worth %i: Yaniv %s', (hand, value, error) => {
    const s = game({ hands: [hand, 'QC QD'], discard: '9H', deck: '3H' });
    expect(handValue(s, 0)).toBe(value);
    expect(why(s, 'yaniv')).toBe(error);
    expect(turns(s).includes('yaniv')).toBe(error === null);
  });

  it('a player may always choose not to call', () => {
    const s = game({ hands: ['AS 2S 4D', 'QC QD'], discard: '9H', deck: '3H' });
    expect(turns(s)).toEqual(expect.arrayContaining(['yaniv', 'AS / deck', '4D / 9H']));
    expect(play(s, 'AS / deck').current).toBe(1);
  });

  it('discard, then take the top of the deck', () => {
    const s = play(game(EXAMPLE), 'AS 2S 3S / deck');
    expect(handText(s, 0)).toBe('KH KD 6C');
    expect(s.deck[s.deckLength - 1]).toBe(card('9H'));
    expect(previous(s)).toBe('AS 2S 3S');
  });

  it('at the first turn of a round the previous group is the turned-up card', () => {
    const s = game(EXAMPLE);
    expect(takeable(s)).toEqual(['7H']);
    expect(handText(play(s, 'KH / 7H'), 0)).toBe('AS 2S 3S 7H KD');
  });

  it('only the previous group can be taken, never older cards of the pile', () => {
    const s = play(game(EXAMPLE), 'AS 2S 3S / deck');
    expect(why(s, '9C / 7H')).toBe('7H cannot be taken: it is not in the previous group AS 2S 3S');
  });

  it('never the group one just laid', () => {
    const s = game(EXAMPLE);
    expect(why(s, 'KH / KH')).toBe('KH cannot be taken: only 7H can');
    const later = play(s, 'AS 2S 3S / deck');
    expect(why(later, '9C 9D / 9C')).toMatch(/^9C cannot be taken/);
  });

  it('passing is not allowed: a turn lays at least one card and takes exactly one', () => {
    const s = game(EXAMPLE);
    expect(why(s, '- / deck')).toBe('a discard needs at least one card');
    for (const line of turns(s)) expect(line).toMatch(/^\S+( \S+)* \/ (deck|7H)$/);
  });

  it.each([
    ['QS / deck', "QS is not in seat 0's hand"],
    ['KH KH / deck', "KH is not in seat 0's hand"],
    ['AS 2S 3S 4S / deck', "4S is not in seat 0's hand"],
  ])('%s: %s', (line, error) => {
    expect(why(game(EXAMPLE), line)).toBe(error);
  });

  it('a player with no cards left (after a quick discard) must call', () => {
    const s = play(
      game({ hands: ['5S', 'KC QC'], discard: '9D', deck: '5H 2D 3D' }, { rules: { quickDiscard: true } }),
      '5S / deck +quick', // 5H joins the single 5S: seat 0 holds nothing
      'KC / deck',
    );
    expect(s.handLength[0]).toBe(0);
    expect(turns(s)).toEqual(['yaniv']);
    expect(why(s, '- / deck')).toBe('seat 0 has no cards left and must call Yaniv');
    expect(showdown(s, 'yaniv')).toMatchObject({ outcome: 'yaniv', caller: 0, points: [0, 12] });
  });
});

/** A game where seat 0 holds exactly these cards (plus a king so that it keeps a card). */
function holding(group: string, table: DealTable = {}): ReturnType<typeof game> {
  return game({ hands: [`${group} KC`, '2D 3D'], discard: '9D', deck: '4D' }, table);
}

describe('Legal discard groups', () => {
  const JOKERS4 = { rules: { jokersPerDeck: 4 } } as const;
  const TWO_DECKS = { rules: { decks: 2 } } as const;
  // [laid, type, the order the generator lists it in, table]
  const legal: [string, 'single' | 'set' | 'run', string, DealTable?][] = [
    ['KH', 'single', 'KH'],
    ['JK', 'single', 'JK'],
    ['8H 8D', 'set', '8H 8D'],
    ['8D 8H', 'set', '8H 8D'],
    ['8S 8H 8D 8C', 'set', '8S 8H 8D 8C'],
    ['8H JK', 'set', '8H JK'], // a joker stands in for an eight
    ['JK 8H', 'set', '8H JK'],
    ['8H JK 8D', 'set', '8H 8D JK'],
    ['JK JK', 'set', 'JK JK'], // a pair of jokers
    ['JK JK JK', 'set', 'JK JK JK', JOKERS4],
    ['5S JK JK', 'set', '5S JK JK'], // one natural card and jokers: a set, not a run
    ['JK 5S JK', 'set', '5S JK JK'],
    ['JK JK 5S', 'set', '5S JK JK'],
    ['8H 8H', 'set', '8H 8H', TWO_DECKS],
    ['8H JK 8H 8D', 'set', '8H 8H 8D JK', TWO_DECKS],
    ['AS 2S 3S', 'run', 'AS 2S 3S'], // ace is low
    ['3S 2S AS', 'run', 'AS 2S 3S'], // descending
    ['JS QS KS', 'run', 'JS QS KS'],
    ['KS QS JS', 'run', 'JS QS KS'],
    ['9H 10H JH QH KH', 'run', '9H 10H JH QH KH'],
    ['AD 2D 3D 4D 5D 6D', 'run', 'AD 2D 3D 4D 5D 6D'],
    ['JK 2S 3S', 'run', 'JK 2S 3S'], // joker at the low end: A-2-3
    ['AS JK 3S', 'run', 'AS JK 3S'], // joker inside
    ['AS 2S JK', 'run', 'AS 2S JK'], // joker at the high end: A-2-3
    ['JK 5S 6S', 'run', 'JK 5S 6S'], // 4-5-6
    ['5S 6S JK', 'run', '5S 6S JK'], // 5-6-7
    ['6S 5S JK', 'run', 'JK 5S 6S'], // descending 6-5-4
    ['JK 6S 5S', 'run', '5S 6S JK'], // descending 7-6-5
    ['JK JK 3S 4S', 'run', 'JK JK 3S 4S'], // A-2-3-4
    ['4S JK JK 7S', 'run', '4S JK JK 7S'],
    ['JK QS KS', 'run', 'JK QS KS'], // J-Q-K
    ['KS QS JK', 'run', 'JK QS KS'], // K-Q-J
    ['5H 6H 7H', 'run', '5H 6H 7H', TWO_DECKS],
  ];

  it.each(legal)('%s is a legal %s', (laid, type, listed, table = {}) => {
    const rules = resolveRules({ players: 2, ...table });
    const classified = classifyLaid(cards(laid), rules);
    expect(classified).not.toHaveProperty('error');
    if ('error' in classified) return;
    expect(GROUP_TYPE_NAMES[classified.type]).toBe(type);
    expect(text(classified.cards)).toBe(listed);
    const s = holding(laid, table);
    expect(why(s, `${laid} / deck`)).toBeNull();
    expect(discards(s)).toContain(listed);
  });

  // [laid, the reason, whether some other order of the same cards is legal]
  const illegal: [string, RegExp, boolean][] = [
    ['QS KS AS', /every position must be a rank from A to K|ranks must follow/, false], // ace is low only
    ['KS AS 2S', /ranks must follow/, false], // no wrap-around
    ['QS KS JK', /every position must be a rank from A to K/, true], // there is no rank above K …
    ['JK AS 2S', /every position must be a rank from A to K/, true], // … nor below A
    ['AS 2S', /a run needs three/, false],
    ['8H 9D', /two cards of different ranks are not a set/, false], // two unmatched cards
    ['AS 2H 3S', /a run needs cards of one suit/, false], // mixed suits
    ['5S JK 7H', /a run needs cards of one suit/, false],
    ['AS 2S 4S', /ranks must follow/, false], // a gap without a joker
    ['AS 3S 2S', /ranks must follow/, true], // a run is laid in rank order
    ['2S JK 3S', /ranks must follow/, true],
    ['AS 2S 3S 9C 9D', /not a legal group/, false], // two groups at once
    ['9C 9D 9H 4S', /not a legal group/, false],
  ];

  it.each(illegal)('%s is not a legal group', (laid, reason, otherOrderIsLegal) => {
    const s = holding(laid);
    const error = why(s, `${laid} / deck`);
    expect(error).toMatch(reason);
    expect(error).toContain(laid);
    const sameCards = (listed: string) => text(cards(listed).sort((a, b) => a - b)) === text(cards(laid).sort((a, b) => a - b));
    expect(discards(s).some(sameCards)).toBe(otherOrderIsLegal);
  });

  it('with two decks a run cannot hold the same card twice', () => {
    const s = holding('5S 5S 6S', { rules: { decks: 2 } });
    expect(why(s, '5S 5S 6S / deck')).toMatch(/not a legal group/);
    expect(why(s, '5S 6S 5S / deck')).toMatch(/not a legal group/);
  });

  it('the generator lists each legal group once, and nothing else', () => {
    // AS 2S 3S KH KD under the standard rules: 5 singles, the pair of kings, the run A-2-3.
    expect(discards(game(EXAMPLE))).toEqual(['AS', '2S', '3S', 'KH', 'KD', 'KH KD', 'AS 2S 3S']);
  });
});

/** Seat 0 lays `group` and draws from the deck; returns the position where seat 1 may take from it. */
function laidBySeat0(group: string, table: DealTable = {}) {
  return play(game({ hands: [`${group} 2C`, '3D 9C 10H KD QD'], discard: '4H', deck: 'QC 10C' }, table), `${group} / deck`);
}

describe('Which cards of the previous group may be taken', () => {
  const ANY_RUN = { rules: { pickFromRun: 'any' } } as const;
  const SET_ENDS = { rules: { pickFromSet: 'ends' } } as const;
  // [laid by the previous player, rules, what may be taken]
  const table: [string, string, DealTable, string][] = [
    ['7H', 'standard', {}, '7H'],
    ['4S 5S 6S 7S', 'standard: run ends', {}, '4S 7S'],
    ['7S 6S 5S 4S', 'standard: run ends', {}, '4S 7S'],
    ['4S 5S 6S 7S', 'pickFromRun any', ANY_RUN, '4S 5S 6S 7S'],
    ['JK 5S 6S', 'standard: a joker end', {}, 'JK 6S'], // 4-5-6: the joker is the 4
    ['5S 6S JK', 'standard: a joker end', {}, '5S JK'], // 5-6-7: the joker is the 7
    ['5S JK 7S', 'standard: a joker inside', {}, '5S 7S'],
    ['5S JK 7S', 'pickFromRun any', ANY_RUN, '5S JK 7S'],
    ['8H 8D 8C', 'standard: any card of a set', {}, '8H 8D 8C'],
    ['8H JK 8D', 'standard: any card of a set', {}, '8H 8D JK'],
    ['JK JK', 'standard', {}, 'JK'],
    ['8H 8D 8C', 'pickFromSet ends', SET_ENDS, '8H 8C'],
    ['8C 8D 8H', 'pickFromSet ends', SET_ENDS, '8H 8C'],
    ['8H 8D 8C', 'norwegian', { preset: 'norwegian' }, '8H 8C'],
    ['8H JK 8D', 'pickFromSet ends: a joker inside', SET_ENDS, '8H 8D'],
    ['8H 8D JK', 'pickFromSet ends: a joker end', SET_ENDS, '8H JK'],
    ['8H 8D', 'pickFromSet ends: a pair', SET_ENDS, '8H 8D'],
  ];

  it.each(table)('from %s (%s): %s', (laid, _rules, setup, pickable) => {
    const s = laidBySeat0(laid, setup);
    expect(s.current).toBe(1);
    expect(takeable(s).join(' ')).toBe(pickable);
    const draws = turns(s)
      .filter((line) => line.startsWith('3D /'))
      .map((line) => line.slice('3D / '.length));
    expect(draws).toEqual(['deck', ...pickable.split(' ')]);
    for (const name of cards(laid)) {
      const error = why(s, `3D / ${text([name])}`);
      expect(error === null).toBe(pickable.split(' ').includes(text([name])));
    }
  });

  it('the error names the ends that may be taken', () => {
    const s = laidBySeat0('4S 5S 6S');
    expect(why(s, '3D / 5S')).toBe('5S cannot be taken: only the ends 4S, 6S of the previous run may be taken');
    expect(why(laidBySeat0('8H 8D 8C', SET_ENDS), '3D / 8D')).toBe(
      '8D cannot be taken: only the ends 8H, 8C of the previous set may be taken',
    );
  });

  it('a joker may be taken like any other card; it is worth 0 in the hand', () => {
    const s = play(laidBySeat0('JK 5S 6S'), '3D / JK');
    expect(handText(s, 1)).toBe('10H QD KD 9C JK'); // kind order: spades, hearts, diamonds, clubs, jokers
    expect(handValue(s, 1)).toBe(39);
  });
});

describe('Empty deck', () => {
  //   seat 0: KH QH 2C 3C 4C      seat 1: KS QS 8D 8H 8C      turned up: 7D     deck: 9S 10S
  const deal: DealText = { hands: ['KH QH 2C 3C 4C', 'KS QS 8D 8H 8C'], discard: '7D', deck: '9S 10S' };
  const beforeEmptyDeck = () =>
    play(
      game(deal),
      'KH / deck', //        pile: 7D
      '8D 8H 8C / deck', //  pile: 7D KH; the deck is now empty
      'QH / 8H', //          seat 0 takes 8H; what is left of the set (8D 8C) goes to the pile
    );

  it('the pile except the previous group and the group just laid is reshuffled into the deck', () => {
    const s = beforeEmptyDeck();
    expect(s.deckLength).toBe(0);
    expect(previous(s)).toBe('QH');
    let reshuffled: string | null = null;
    const { state } = playTurnWith(s, 'KS / deck', (pile) => {
      reshuffled = text(pile);
      return cards('8C KH 7D 8D'); // the new deck, top first
    });
    // Not QH (seat 0's group, which seat 1 could take) and not KS (just laid).
    expect(reshuffled).toBe('KH 7D 8D 8C');
    expect(handText(state, 1)).toBe('10S QS 8C');
    expect(text(Array.from(state.deck.subarray(0, state.deckLength)).reverse())).toBe('KH 7D 8D');
    expect(previous(state)).toBe('KS');
    expect(state.pileLength).toBe(1); // QH: the previous group, now out of reach
  });

  it('without a given order the PRNG shuffles the same cards', () => {
    const s = play(beforeEmptyDeck(), 'KS / deck');
    const dealt = [...Array.from(s.deck.subarray(0, s.deckLength)), ...cards(handText(s, 1))].sort((a, b) => a - b);
    expect(text(dealt)).toBe('10S QS KH 7D 8D 8C');
  });

  it('when nothing can be reshuffled the player must take from the previous group', () => {
    const s = game({ hands: ['KH QH', 'KS QS'], discard: '7D', deck: [] });
    expect(why(s, 'KH / deck')).toBe('the deck is empty and there is nothing to reshuffle: take from the previous group');
    expect(turns(s)).toEqual(['QH / 7D', 'KH / 7D']);
    expect(handText(play(s, 'KH / 7D'), 0)).toBe('QH 7D');
  });

  it('an exhausted round scores every hand; the lowest wins, ties from the left of the player who could not draw', () => {
    // Unreachable in play (the previous group always has a card that may be taken), scored as written.
    const values = [12, 5, 5, 9];
    const clockwise = (seat: number) => [1, 2, 3, 4].map((i) => (seat + i) % 4);
    expect(scoreRound(STANDARD, values, { kind: 'exhausted', stuck: 1 }, clockwise)).toEqual({
      outcome: 'exhausted',
      points: values,
      winner: 2,
    });
    expect(scoreRound(STANDARD, values, { kind: 'exhausted', stuck: 2 }, clockwise)).toEqual({
      outcome: 'exhausted',
      points: values,
      winner: 1,
    });
  });
});

function playTurnWith(s: ReturnType<typeof game>, line: string, order: (pile: number[]) => readonly number[]) {
  return playTurn(s, parseTurn(line), { reshuffleOrder: order });
}

/** Seat `caller` calls Yaniv at once with the hands as dealt. */
function call(hands: (string | null)[], caller: number, table: DealTable = {}) {
  const s = game({ hands, discard: '9S', deck: '9H 9D', starter: caller }, table);
  return showdown(s, 'yaniv');
}

describe('Showdown and scoring a round', () => {
  it('Yaniv succeeds when every other hand is higher: the caller scores 0, the others their hand', () => {
    expect(call(['AS 2S 3S', '4H 3H', 'KC'], 0)).toEqual({
      outcome: 'yaniv',
      caller: 0,
      handValues: [6, 7, 10],
      points: [0, 7, 10],
      totals: [0, 7, 10],
      eliminated: [],
      winner: 0,
    });
  });

  it('Assaf on a tie (m = c): the caller scores c + 30, the Assaf winner 0, the others their hand', () => {
    expect(call(['AS 2S 3S', '6H', 'KC'], 0)).toMatchObject({ outcome: 'assaf', points: [36, 0, 10], winner: 1 });
  });

  it('Assaf with a lower hand: only the lowest hands are Assaf winners', () => {
    expect(call(['AS 2S 3S', '5H', '2C 2D'], 0)).toMatchObject({ outcome: 'assaf', points: [36, 5, 0], winner: 2 });
  });

  it("two tied Assaf winners both score 0; the round goes to the first one clockwise from the caller's left", () => {
    //        seat 0: 5    seat 1: 10    caller seat 2: 6    seat 3: 5
    expect(call(['5H', 'KS', '3C 3D', '4S AH'], 2)).toMatchObject({ outcome: 'assaf', points: [0, 10, 36, 0], winner: 3 });
    //        seat 0: 5    seat 1: 5     caller seat 2: 6    seat 3: 10
    expect(call(['5H', '4S AH', '3C 3D', 'KS'], 2)).toMatchObject({ outcome: 'assaf', points: [0, 0, 36, 10], winner: 0 });
  });

  it("the caller's own value does not count as an opponent's", () => {
    expect(call(['AS', 'AH', 'AD', 'AC'], 3)).toMatchObject({ outcome: 'assaf', winner: 0, points: [0, 0, 0, 31] });
  });

  it.each([
    ['lowest', [36, 5, 0, 9]],
    ['othersZero', [36, 0, 0, 0]],
    ['everyone', [36, 5, 4, 9]],
  ] as const)('assafScoring %s', (assafScoring, points) => {
    expect(call(['AS 2S 3S', '5H', '2C 2D', '9C'], 0, { rules: { assafScoring } })).toMatchObject({ outcome: 'assaf', points, winner: 2 });
  });

  it('assafPenalty sets what the caller adds', () => {
    expect(call(['AS 2S 3S', '5H', 'KC'], 0, { rules: { assafPenalty: 25 } })).toMatchObject({ points: [31, 0, 10] });
  });

  it('without Assaf (family) a call always succeeds', () => {
    expect(call(['AS 2S 3S', '5H', 'AC'], 0, { preset: 'family' })).toMatchObject({ outcome: 'yaniv', points: [0, 5, 1], winner: 0 });
  });

  it.each([
    ['a tie costs exactly assafTiePenalty; everyone else scores their hand', '6H', [20, 6, 10]],
    ['a lower hand is an ordinary Assaf', '5H', [36, 0, 10]],
  ])('assafTiePenalty 20: %s', (_what, hand1, points) => {
    expect(call(['AS 2S 3S', hand1, 'KC'], 0, { rules: { assafTiePenalty: 20 } })).toMatchObject({ outcome: 'assaf', points, winner: 1 });
  });

  it('dutch: a tie costs 20, a lower hand gives everyone but the caller 0', () => {
    expect(call(['AS 3S', '4H', 'KC'], 0, { preset: 'dutch' })).toMatchObject({ outcome: 'assaf', points: [20, 4, 10], winner: 1 });
    expect(call(['AS 3S', '3H', 'KC'], 0, { preset: 'dutch' })).toMatchObject({ outcome: 'assaf', points: [34, 0, 0], winner: 1 });
  });

  it('norwegian: Assaf scores everyone their hand', () => {
    expect(call(['AS 3S', '3H', 'KC'], 0, { preset: 'norwegian' })).toMatchObject({ outcome: 'assaf', points: [34, 3, 10], winner: 1 });
  });

  it('eliminated seats take no part: no hand, no points', () => {
    expect(call(['AS 2S 3S', null, 'KC'], 0)).toMatchObject({ handValues: [6, null, 10], points: [0, null, 10] });
  });
});

/** Seat `caller` calls at once; totals before the round as given. */
function round(hands: (string | null)[], caller: number, totals: number[], table: DealTable = {}) {
  const s = play(game({ hands, discard: '9S', deck: '9H 9D', starter: caller }, { ...table, totals }), 'yaniv');
  return { s, result: s.lastResult! };
}

describe('Totals, milestones, elimination, end of game', () => {
  it('each round score is added to the total', () => {
    expect(round(['AS 2S 3S', '4H 3H', 'KC'], 0, [10, 20, 30]).result.totals).toEqual([10, 27, 40]);
  });

  it.each([
    ['landing exactly on 50 makes it 25', 41, '4H 5H', 25],
    ['landing exactly on 100 makes it 50', 91, '4H 5H', 50],
    ['passing 50 does nothing', 45, '4H 5H', 54],
    ['landing on 49 does nothing', 40, '4H 5H', 49],
  ])('milestones: %s', (_what, before, hand, after) => {
    expect(round(['AS 2S 3S', hand, 'KC'], 0, [0, before, 0]).result.totals[1]).toBe(after);
  });

  it('the totals a round leaves are one pure function of the totals and points, the engine’s own', () => {
    // Seat 1 lands on 50 (→ 25), seat 2 passes the limit, seat 3 sat out; with robbery the lowest other adds 30.
    const rules = resolveRules({ players: 4 });
    const before = [10, 41, 195, 300];
    const args = [before, [true, true, true, false], [3, 9, 7, null]] as const;
    expect(totalsAfterRound(rules, ...args)).toEqual({ totals: [13, 25, 202, 300], eliminated: [2] });
    expect(before).toEqual([10, 41, 195, 300]);
    const robbing = resolveRules({ players: 4, rules: { milestoneRobbery: true } });
    expect(totalsAfterRound(robbing, ...args)).toEqual({ totals: [43, 25, 202, 300], eliminated: [2] });
    const played = round(['AS 2S 3S', '4H 5H', 'KC'], 0, [10, 41, 195]).result;
    expect(totalsAfterRound(STANDARD, [10, 41, 195], [true, true, true], played.points).totals).toEqual(played.totals);
  });

  it('a milestone applies once per round, not chained', () => {
    const table = {
      rules: {
        milestones: [
          [50, 100],
          [100, 50],
        ] as [number, number][],
      },
    };
    expect(round(['AS 2S 3S', '4H 5H', 'KC'], 0, [0, 41, 0], table).result.totals[1]).toBe(100);
  });

  it('a total standing on a milestone after scoring 0 takes it (conformance 009)', () => {
    expect(round(['AS 2S 3S', '4H 5H', 'KC'], 0, [50, 0, 0]).result.totals[0]).toBe(25);
  });

  it('the round result reports points before milestones and totals after', () => {
    expect(round(['AS 2S 3S', '4H 5H', 'KC'], 0, [0, 41, 0]).result).toMatchObject({ points: [0, 9, 10], totals: [0, 25, 10] });
  });

  it.each([
    ['milestoneRobbery off', false, [10, 25, 20]],
    ['milestoneRobbery: the leader adds 30', true, [40, 25, 20]],
  ])('%s', (_what, milestoneRobbery, totals) => {
    // Seat 1 lands on 50 → 25; the lowest other total after that is seat 0's 10.
    expect(round(['AS 2S 3S', '4H 5H', 'KC'], 0, [10, 41, 10], { rules: { milestoneRobbery } }).result.totals).toEqual(totals);
  });

  it('milestoneRobbery: tied leaders all add 30', () => {
    expect(round(['AS 2S 3S', '4H 5H', 'KC'], 0, [10, 41, 0], { rules: { milestoneRobbery: true } }).result.totals).toEqual([40, 25, 40]);
  });

  it('a total above eliminationLimit eliminates; a total at it does not', () => {
    const { s, result } = round(['AS 2S 3S', '4H 5H', 'KC', 'QC'], 0, [0, 191, 191, 10]);
    expect(result).toMatchObject({ totals: [0, 200, 201, 20], eliminated: [2] });
    expect(Array.from(s.active)).toEqual([1, 1, 0, 1]);
    expect(s.phase).toBe(PHASE_BETWEEN_ROUNDS);
    // Round 2 deals no hand to seat 2 and play skips it.
    redeal(s, { hands: ['KS QS', 'KH QH', null, 'KD QD'], discard: '2C', deck: '3C 4C' });
    expect(s.current).toBe(1);
    expect(play(s, 'KH / deck').current).toBe(3);
  });

  it('eliminationLimit is an option', () => {
    expect(round(['AS 2S 3S', '4H 5H', 'KC'], 0, [0, 40, 45], { rules: { eliminationLimit: 50 } }).result).toMatchObject({
      totals: [0, 49, 55],
      eliminated: [2],
    });
  });

  describe('gameEnd "lastSurvivor"', () => {
    it('the last active player wins', () => {
      const { s } = round(['AS 2S 3S', 'KC'], 0, [0, 195]);
      expect([s.phase, s.winner]).toEqual([PHASE_GAME_OVER, 0]);
    });

    it('the game goes on while two are left', () => {
      const { s } = round(['AS 2S 3S', 'KC', 'QC'], 0, [0, 195, 0]);
      expect([s.phase, s.winner]).toEqual([PHASE_BETWEEN_ROUNDS, -1]);
    });

    it('if the round eliminates everyone left, the lowest total wins', () => {
      // Assaf scored "everyone": the caller 190 + 6 + 30 = 226, seat 1 196 + 6 = 202.
      const { s, result } = round(['AS 2S 3S', '6H'], 0, [190, 196], { rules: { assafScoring: 'everyone' } });
      expect(result).toMatchObject({ totals: [226, 202], eliminated: [0, 1] });
      expect([s.phase, s.winner]).toEqual([PHASE_GAME_OVER, 1]);
    });

    it('… ties go to the lowest seat', () => {
      // Seat 1 calls: 190 + 6 + 30 = 226; seat 0: 220 + 6 = 226.
      const { s, result } = round(['6H', 'AS 2S 3S'], 1, [220, 190], { rules: { assafScoring: 'everyone' } });
      expect(result).toMatchObject({ totals: [226, 226], eliminated: [0, 1] });
      expect(s.winner).toBe(0);
    });
  });

  describe('gameEnd "firstOverLimit"', () => {
    const table = { rules: { gameEnd: 'firstOverLimit' } } as const;
    it('the game ends after the first round in which someone passes the limit; the lowest total wins', () => {
      const { s } = round(['AS 2S 3S', 'KC', 'QC'], 0, [40, 195, 20], table);
      expect(Array.from(s.totals)).toEqual([40, 205, 30]);
      expect([s.phase, s.winner]).toEqual([PHASE_GAME_OVER, 2]);
    });

    it('ties go to the lowest seat', () => {
      const { s } = round(['KC', 'QC', 'AS 2S 3S'], 2, [20, 195, 30], table);
      expect(Array.from(s.totals)).toEqual([30, 205, 30]);
      expect(s.winner).toBe(0);
    });

    it('no one over the limit: the game goes on', () => {
      expect(round(['AS 2S 3S', 'KC', 'QC'], 0, [40, 190, 20], table).s.phase).toBe(PHASE_BETWEEN_ROUNDS);
    });
  });

  describe('gameEnd "yanivCount"', () => {
    const table = { rules: { gameEnd: 'yanivCount', yanivsToWin: 2, slapdown: true } } as const;
    const deal = (hands: string[]): DealText => ({ hands, discard: '9S', deck: 'JK 9H 9D' });

    it('the first player to reach yanivsToWin successful calls wins at once, whatever the totals', () => {
      const s = play(game(deal(['AS 2S', 'KC QC']), { ...table, totals: [150, 0] }), 'yaniv');
      expect([s.yanivWins[0], s.phase]).toEqual([1, PHASE_BETWEEN_ROUNDS]);
      redeal(s, deal(['AS 3S', 'KC QC'])); // seat 1 starts round 2
      const end = play(s, 'KC / deck', 'yaniv');
      expect([end.phase, end.winner]).toEqual([PHASE_GAME_OVER, 0]);
    });

    it('an Assaf call does not count', () => {
      const s = play(game(deal(['AS 2S', 'AH 2C']), table), 'yaniv');
      expect(s.lastResult?.outcome).toBe('assaf');
      expect(Array.from(s.yanivWins)).toEqual([0, 0]);
    });

    it('a slapdown counts as one', () => {
      const s = play(game(deal(['KH JK', 'KC QC']), table), 'KH / deck +slapdown');
      expect(s.lastResult?.outcome).toBe('slapdown');
      expect(s.yanivWins[0]).toBe(1);
      redeal(s, deal(['AS 3S', 'KC QC']));
      const end = play(s, 'KC / deck', 'yaniv');
      expect([end.phase, end.winner]).toEqual([PHASE_GAME_OVER, 0]);
    });

    it('players still drop out above the limit, and a last survivor wins', () => {
      const { s } = round(['AS 2S 3S', 'KC'], 0, [0, 195], table);
      expect([s.phase, s.winner, s.yanivWins[0]]).toEqual([PHASE_GAME_OVER, 0, 1]);
    });
  });
});

describe('Who starts the next round', () => {
  const hands3 = ['AS 2S 3S', 'KC QC', 'KD QD'];

  it('"rotate": seat 0 starts round 1, then the dealer moves one seat clockwise each round', () => {
    // Each round the starter holds AS 2S 3S and calls at once.
    let s = game({ hands: hands3, discard: '9S', deck: '9H' });
    const starters = [s.current];
    for (let r = 0; r < 4; r++) {
      s = play(s, 'yaniv');
      redeal(s, { hands: rotateHands(hands3, s.nextStarter), discard: '9S', deck: '9H' });
      starters.push(s.current);
    }
    expect(starters).toEqual([0, 1, 2, 0, 1]);
  });

  it('"rotate" skips eliminated seats: the dealer moves to the next active seat', () => {
    // Round 1: dealer 3, seat 0 starts. Seat 1 is eliminated: the dealer moves to seat 0, seat 2 starts.
    const { s } = round(['AS 2S 3S', 'KC', 'KD', 'KH'], 0, [0, 195, 0, 0]);
    expect(s.nextStarter).toBe(2);
    redeal(s, { hands: ['QS', null, 'QH', 'QD'], discard: '9S', deck: '9H' });
    expect([s.dealer, s.current]).toEqual([0, 2]);
  });

  it('"rotate" when the new dealer seat is eliminated', () => {
    // Round 1 (dealer 3) ends normally; round 2 (dealer 0, seat 1 starts) eliminates seat 0:
    // the dealer moves on from seat 0 to seat 1 and seat 2 starts.
    const { s } = round(['AS 2S 3S', 'KC', 'KD', 'KH'], 0, [0, 0, 0, 0]);
    redeal(s, { hands: ['KS', 'AH 2H 3H', 'QS', 'QH'], discard: '9S', deck: '9H', starter: 1 });
    s.totals[0] = 195;
    const after = play(s, 'yaniv');
    expect(after.lastResult?.eliminated).toEqual([0]);
    expect(after.nextStarter).toBe(2);
  });

  it('"roundWinner": the successful caller starts', () => {
    expect(round(['KC', 'QC', 'AS 2S 3S'], 2, [0, 0, 0], { rules: { nextStarter: 'roundWinner' } }).s.nextStarter).toBe(2);
  });

  it('"roundWinner": after Assaf the Assaf winner starts', () => {
    // pagat: threshold 5, the round winner starts. Seat 0 calls with 4; seat 2 ties: Assaf.
    expect(round(['AS 3S', 'KC', '4H'], 0, [0, 0, 0], { preset: 'pagat' }).s.nextStarter).toBe(2);
  });

  it('"roundWinner": an eliminated winner is replaced by the next active seat clockwise', () => {
    // Assaf scored "everyone": the Assaf winner, seat 1, scores 5 and passes 200.
    const { s, result } = round(['AS 2S 3S', '5H', 'KC'], 0, [0, 198, 0], {
      rules: { nextStarter: 'roundWinner', assafScoring: 'everyone' },
    });
    expect(result).toMatchObject({ winner: 1, eliminated: [1] });
    expect(s.nextStarter).toBe(2);
  });

  it('"lowestHand": the lowest hand at the showdown starts', () => {
    expect(round(['KC', 'QC', 'AS 2S 3S', '9D'], 2, [0, 0, 0, 0], { rules: { nextStarter: 'lowestHand' } }).s.nextStarter).toBe(2);
  });

  it.each([
    // hands of seats 0..3, seat 2 calls; the lowest value is shared
    [['9D', 'AH 2H', '3C', '8D'], 1], //   seats 1 and 2 (the caller) tie at 3: seat 1 comes first from the caller's left
    [['AH 2H', '9D', '3C', '3D'], 3], //   seats 0, 2, 3 tie: seat 3 is first from the caller's left
    [['AH 2H', '3H', '3C', '8D'], 0], //   seats 0, 1, 2 tie: seat 0
  ])('"lowestHand": ties go to the first one clockwise from the caller\'s left (%j)', (hands, starter) => {
    expect(round(hands, 2, [0, 0, 0, 0], { rules: { nextStarter: 'lowestHand' } }).s.nextStarter).toBe(starter);
  });

  it('"lowestHand": an eliminated lowest hand is replaced by the next active seat clockwise', () => {
    const { s, result } = round(['AS 2S 3S', '5H', 'KC'], 0, [0, 198, 0], {
      rules: { nextStarter: 'lowestHand', assafScoring: 'everyone' },
    });
    expect(result.eliminated).toEqual([1]);
    expect(s.nextStarter).toBe(2);
  });

  it('norwegian starts with the lowest hand', () => {
    expect(round(['KC', '5C', 'AS 2S', '9D'], 2, [0, 0, 0, 0], { preset: 'norwegian' }).s.nextStarter).toBe(2);
    expect(round(['KC', '3C', 'AS 2S', '9D'], 2, [0, 0, 0, 0], { preset: 'norwegian' }).s.nextStarter).toBe(1);
  });
});

/** The hands dealt so that seat `starter` holds the low hand. */
function rotateHands(hands: string[], starter: number): string[] {
  return hands.map((_, seat) => hands[(seat - starter + hands.length) % hands.length]);
}

const RULES_MD = readFileSync(new URL('../../../docs/RULES.md', import.meta.url), 'utf8');

describe('Rule options and presets', () => {
  const standard = {
    decks: 1,
    jokersPerDeck: 2,
    handSize: 5,
    jackValue: 10,
    yanivThreshold: 7,
    assaf: true,
    assafPenalty: 30,
    assafScoring: 'lowest',
    assafTiePenalty: null,
    pickFromSet: 'any',
    pickFromRun: 'ends',
    milestones: [
      [50, 25],
      [100, 50],
    ],
    milestoneRobbery: false,
    eliminationLimit: 200,
    gameEnd: 'lastSurvivor',
    yanivsToWin: 10,
    nextStarter: 'rotate',
    slapdown: false,
    quickDiscard: false,
  };

  it('the options are exactly the rows of the table in RULES.md', () => {
    const rows = [...RULES_MD.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);
    expect([...RULE_OPTION_NAMES].sort()).toEqual([...rows].sort());
  });

  it('the presets are exactly those RULES.md names', () => {
    const named = [...RULES_MD.matchAll(/^- `(\w+)` —/gm)].map((m) => m[1]);
    expect([...PRESET_NAMES].sort()).toEqual([...named].sort());
  });

  /**
   * Each preset's changes to standard as RULES.md lists them (its `option: value` pairs, JSON
   * values), read from the specification rather than copied here; `decks` depends on the table
   * size and is checked by the deck counts below.
   */
  const presetChanges = [...RULES_MD.matchAll(/^- `(\w+)` —([\s\S]*?)(?=\n- |\n\n)/gm)].map(([, preset, text]) => {
    const pairs = [...text.matchAll(/`(\w+): ([^`]+)`/g)].filter(([, option]) => option !== 'decks');
    return [preset, Object.fromEntries(pairs.map(([, option, value]) => [option, JSON.parse(value) as unknown]))] as const;
  });

  it('RULES.md lists the changes of every preset but standard', () => {
    expect(presetChanges.map(([preset]) => preset).sort()).toEqual([...PRESET_NAMES].sort());
    for (const [preset, changes] of presetChanges) expect(Object.keys(changes).length > 0, preset).toBe(preset !== 'standard');
    expect(Object.fromEntries(presetChanges).dutch).toMatchObject({ yanivThreshold: 4, assafTiePenalty: 20 });
  });

  it.each(presetChanges)('preset %s is standard with the changes RULES.md lists, %j', (preset, changes) => {
    expect(resolveRules({ preset, players: 3 })).toEqual({ ...standard, ...changes });
  });

  it.each([
    ['standard', 5, 1],
    ['standard', 6, 2],
    ['standard', 8, 2],
    ['israeli5', 6, 2],
    ['family', 2, 1],
    ['pagat', 4, 1],
    ['pagat', 5, 2],
    ['dutch', 5, 1],
    ['norwegian', 6, 2],
    ['nepal', 5, 1],
  ])('%s with %i players plays with %i deck(s)', (preset, players, decks) => {
    expect(resolveRules({ preset, players }).decks).toBe(decks);
  });

  it('explicit overrides win over the preset and the player count', () => {
    expect(resolveRules({ preset: 'pagat', players: 5, rules: { decks: 1 } }).decks).toBe(1);
    expect(resolveRules({ preset: 'standard', players: 3, rules: { decks: 2 } }).decks).toBe(2);
    const rules = resolveRules({ preset: 'norwegian', players: 3, rules: { yanivThreshold: 7 } });
    expect([rules.yanivThreshold, rules.pickFromSet]).toEqual([7, 'ends']);
  });

  it("the caller's options object is not changed", () => {
    const overrides = Object.freeze({ milestones: Object.freeze([Object.freeze([60, 30])]) }) as unknown as RuleOptionsInput;
    const rules = resolveRules({ players: 3, rules: overrides });
    expect(rules.milestones).toEqual([[60, 30]]);
    expect(overrides).toEqual({ milestones: [[60, 30]] });
  });

  it.each([
    [{ decks: 3 }, /"decks" must be 1 or 2/],
    [{ jokersPerDeck: 1 }, /"jokersPerDeck" must be 0, 2 or 4/],
    [{ handSize: 8 }, /"handSize" must be an integer from 3 to 7 \(got 8\)/],
    [{ handSize: 2 }, /"handSize" must be an integer from 3 to 7/],
    [{ jackValue: 11 }, /"jackValue" must be an integer from 0 to 10/],
    [{ yanivThreshold: 31 }, /"yanivThreshold" must be an integer from 0 to 30/],
    [{ yanivThreshold: 5.5 }, /"yanivThreshold" must be an integer from 0 to 30/],
    [{ yanivThreshold: '7' }, /"yanivThreshold" must be an integer from 0 to 30/],
    [{ assaf: 'yes' }, /"assaf" must be true or false/],
    [{ assafPenalty: -1 }, /"assafPenalty" must be an integer from 0 to 500/],
    [{ assafPenalty: 501 }, /"assafPenalty" must be an integer from 0 to 500 \(got 501\)/],
    [{ assafTiePenalty: 1e9 }, /"assafTiePenalty" must be an integer from 0 to 500/],
    [{ assafScoring: 'all' }, /"assafScoring" must be one of "lowest", "othersZero", "everyone"/],
    [{ assafTiePenalty: 'none' }, /"assafTiePenalty"/],
    [{ pickFromSet: 'all' }, /"pickFromSet" must be one of "any", "ends"/],
    [{ pickFromRun: 'middle' }, /"pickFromRun" must be one of "ends", "any"/],
    [{ milestones: [[50]] }, /"milestones.*\[at, to\]/],
    [
      {
        milestones: [
          [50, 25],
          [50, 0],
        ],
      },
      /"milestones" must not name the same total twice/,
    ],
    [{ milestones: 50 }, /"milestones" must be a list of \[at, to\] pairs/],
    [{ milestones: Array.from({ length: 21 }, (_, i) => [i + 1, 0]) }, /"milestones" must have at most 20 pairs/],
    [{ milestones: [[501, 0]] }, /"milestones\[0\]\[0\]" must be an integer from 1 to 500 \(got 501\)/],
    [{ milestoneRobbery: 1 }, /"milestoneRobbery" must be true or false/],
    [{ eliminationLimit: 0 }, /"eliminationLimit" must be an integer from 1 to 500/],
    [{ eliminationLimit: 1e15 }, /"eliminationLimit" must be an integer from 1 to 500 \(got 1000000000000000\)/],
    [{ gameEnd: 'firstToLimit' }, /"gameEnd" must be one of "lastSurvivor", "firstOverLimit", "yanivCount"/],
    [{ yanivsToWin: 0 }, /"yanivsToWin" must be an integer from 1 to 50/],
    [{ yanivsToWin: 51 }, /"yanivsToWin" must be an integer from 1 to 50/],
    [{ nextStarter: 'dealer' }, /"nextStarter" must be one of "rotate", "roundWinner", "lowestHand"/],
    [{ slapdown: 'no' }, /"slapdown" must be true or false/],
    [{ quickDiscard: null }, /"quickDiscard" must be true or false/],
    [{ yanivThreshhold: 5 }, /unknown rule option "yanivThreshhold"; the rule options are decks, jokersPerDeck, .*yanivThreshold/],
  ])('%j is an error naming the option and the allowed values', (rules, message) => {
    expect(() => resolveRules({ players: 3, rules })).toThrow(RuleError);
    expect(() => resolveRules({ players: 3, rules })).toThrow(message);
  });

  it('an unknown preset is an error listing the presets', () => {
    expect(() => resolveRules({ preset: 'israeli', players: 3 })).toThrow(
      'unknown preset "israeli"; the presets are standard, israeli5, pagat, dutch, norwegian, nepal, family',
    );
  });

  it.each([
    // players × handSize + 1 (the turned-up card) must not exceed the cards of the decks
    [8, { decks: 1, handSize: 7 }, 'need 57 cards but decks 1 with jokersPerDeck 2 hold 54'],
    [8, { decks: 1, handSize: 7, jokersPerDeck: 4 }, 'need 57 cards but decks 1 with jokersPerDeck 4 hold 56'],
    [7, { decks: 1, handSize: 7, jokersPerDeck: 0 }, null], //   50 of 52
    [8, { decks: 1, handSize: 6, jokersPerDeck: 0 }, null], //   49 of 52
    [8, { decks: 1, handSize: 7, jokersPerDeck: 0 }, 'need 57 cards but decks 1 with jokersPerDeck 0 hold 52'],
    [8, { handSize: 7 }, null], //                                 two decks by default: 57 of 108
  ] as const)('%i players with %j: %s', (players, rules, error) => {
    if (error === null) expect(resolveRules({ players, rules }).handSize).toBe(rules.handSize);
    else expect(() => resolveRules({ players, rules })).toThrow(error);
  });

  it('handSize is how many cards the deal gives', () => {
    const s = newGame({ rules: resolveRules({ players: 4, rules: { handSize: 3 } }), players: 4, seed: 3 });
    startRound(s);
    expect(Array.from(s.handLength)).toEqual([3, 3, 3, 3]);
  });

  it('nepal: no jokers in the decks, jacks worth 0', () => {
    const s = newGame({ rules: resolveRules({ preset: 'nepal', players: 3 }), players: 3, seed: 3 });
    expect(s.composition[card('JK')]).toBe(0);
    const dealt = game({ hands: ['JS JH 3C', 'KC QC'], discard: '9S', deck: '9H' }, { preset: 'nepal' });
    expect(handValue(dealt, 0)).toBe(3);
    expect(why(dealt, 'yaniv')).toBeNull();
  });

  describe('quickDiscard', () => {
    const QUICK = { rules: { quickDiscard: true } } as const;
    const quick = (hand: string, deck: string, table: DealTable = QUICK) =>
      game({ hands: [`${hand} KH`, '2C 3D 9C 10H QD'], discard: '7D', deck: `${deck} 2H 3H` }, table);

    it.each([
      ['4S 5S 6S', '3S', '3S 4S 5S 6S', '3S 6S'], //   the low end of a run
      ['4S 5S 6S', '7S', '4S 5S 6S 7S', '4S 7S'], //   the high end
      ['6S 5S 4S', '3S', '3S 4S 5S 6S', '3S 6S'], //   laid descending
      ['JK 5S 6S', '7S', 'JK 5S 6S 7S', 'JK 7S'], //   4-5-6 becomes 4-5-6-7
      ['JK 5S 6S', '3S', '3S JK 5S 6S', '3S 6S'], //   … or 3-4-5-6
      ['5S 6S JK', '4S', '4S 5S 6S JK', '4S JK'], //   5-6-7 becomes 4-5-6-7
      ['KS KD', 'KC', 'KS KD KC', 'KS KD KC'], //      a set: the new card is the last
      ['9S', '9C', '9S 9C', '9S 9C'], //               a single becomes a pair
      ['8S JK', '8C', '8S JK 8C', '8S JK 8C'], //      a pair with a joker
    ])('%s + %s from the deck → %s (the next player may take %s)', (laid, drawn, group, pickable) => {
      const s = quick(laid, drawn);
      const listed = classifyLaid(cards(laid), s.rules) as { cards: number[] };
      expect(turns(s)).toContain(`${text(listed.cards)} / deck +quick`);
      const after = play(s, `${laid} / deck +quick`);
      expect(previous(after)).toBe(group);
      expect(takeable(after).join(' ')).toBe(pickable);
      expect(handText(after, 0)).toBe('KH');
    });

    it.each([
      ['KS KD', 'KC', 'KS KC'],
      ['KD KS', 'KC', 'KD KC'],
    ])('with pickFromSet "ends" the first card laid stays an end: %s + %s → ends %s', (laid, drawn, pickable) => {
      const after = play(quick(laid, drawn, { rules: { quickDiscard: true, pickFromSet: 'ends' } }), `${laid} / deck +quick`);
      expect(takeable(after).join(' ')).toBe(pickable);
    });

    it.each([
      ['4S 5S 6S', '8S', 'a card that does not touch the run'],
      ['4S 5S 6S', '3H', 'another suit'],
      ['JK 5S 6S', '4S', 'the rank the joker stands for'],
      ['4S 5S 6S', 'JK', 'a joker'],
      ['KS KD', 'JK', 'a joker'],
      ['KS KD', 'QC', 'another rank'],
    ])('%s + %s: no quick discard with %s', (laid, drawn) => {
      const s = quick(laid, drawn);
      expect(why(s, `${laid} / deck +quick`)).toMatch(/quick discard needs|cannot be added/);
      const listed = classifyLaid(cards(laid), s.rules) as { cards: number[] };
      expect(turns(s)).toContain(`${text(listed.cards)} / deck`);
      expect(turns(s)).not.toContain(`${text(listed.cards)} / deck +quick`);
    });

    it('only right after drawing from the deck, not from the previous group', () => {
      const s = game({ hands: ['4S 5S 6S KH', '2C 3D'], discard: '7S', deck: '2H' }, QUICK);
      expect(why(s, '4S 5S 6S / 7S +quick')).toMatch(/quick discard needs .* drawn from the deck/);
    });

    it('declining is allowed', () => {
      const after = play(quick('4S 5S 6S', '3S'), '4S 5S 6S / deck');
      expect(handText(after, 0)).toBe('3S KH');
      expect(previous(after)).toBe('4S 5S 6S');
    });

    it('needs the option', () => {
      expect(why(quick('4S 5S 6S', '3S', {}), '4S 5S 6S / deck +quick')).toMatch(/quick discard needs quickDiscard/);
    });

    it('a turn cannot have both a quick discard and a slapdown', () => {
      const s = game({ hands: ['JK 5S', '2C 3D'], discard: '7D', deck: '5H' }, { rules: { quickDiscard: true, slapdown: true } });
      expect(why(s, '5S / deck +quick +slapdown')).toBe('a turn cannot have both a quick discard and a slapdown');
    });
  });

  describe('slapdown', () => {
    const SLAP = { rules: { slapdown: true } } as const;

    it('right after drawing, a hand worth 0 may end the round: a successful Yaniv', () => {
      const s = game({ hands: ['KH JK', '2C 3D 9C'], discard: '7D', deck: 'JK 2H' }, SLAP);
      expect(turns(s)).toContain('KH / deck +slapdown');
      expect(showdown(s, 'KH / deck +slapdown')).toEqual({
        outcome: 'slapdown',
        caller: 0,
        handValues: [0, 14],
        points: [0, 14],
        totals: [0, 14],
        eliminated: [],
        winner: 0,
      });
    });

    it('there is no Assaf against a slapdown', () => {
      const s = game({ hands: ['KH JK', 'JC JD'], discard: '7D', deck: 'JK 2H' }, { rules: { slapdown: true, jackValue: 0 } });
      expect(showdown(s, 'KH / deck +slapdown')).toMatchObject({ outcome: 'slapdown', points: [0, 0], winner: 0 });
    });

    it('also after taking from the previous group', () => {
      const s = game({ hands: ['KH JK', '2C 3D 9C'], discard: 'JK', deck: '2H' }, SLAP);
      expect(showdown(s, 'KH / JK +slapdown')).toMatchObject({ outcome: 'slapdown', caller: 0 });
    });

    it('not with a hand worth more than 0', () => {
      const s = game({ hands: ['KH JK', '2C 3D 9C'], discard: '7D', deck: 'AS 2H' }, SLAP);
      expect(why(s, 'KH / deck +slapdown')).toMatch(/slapdown needs/);
      expect(turns(s).some((line) => line.endsWith('+slapdown'))).toBe(false);
    });

    it('needs the option', () => {
      const s = game({ hands: ['KH JK', '2C 3D 9C'], discard: '7D', deck: 'JK 2H' });
      expect(why(s, 'KH / deck +slapdown')).toMatch(/slapdown needs slapdown/);
    });
  });
});

describe('rulesJson', () => {
  it("is each rules object's JSON text, whichever was asked last and however many take turns", () => {
    const tables = PRESET_NAMES.flatMap((preset) => [2, 4, 6].map((players) => resolveRules({ preset, players })));
    expect(new Set(tables.map((rules) => JSON.stringify(rules))).size).toBeGreaterThan(4);
    for (let round = 0; round < 3; round++)
      for (const [i, rules] of tables.entries()) {
        expect(rulesJson(rules)).toBe(JSON.stringify(rules));
        expect(rulesJson(tables[(i * 7) % tables.length])).toBe(JSON.stringify(tables[(i * 7) % tables.length]));
      }
  });
});
