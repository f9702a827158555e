// `yaniv replay FILE [--json]` through the real entry point (RECORD.md, "Replay result"):
// exit 0 when the record replays, 1 at an illegal move, 2 when the document is not a record.
// `npm test` builds first; the records are written to a temp folder by the tests themselves.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scratchFolder, yanivWithin } from './processes.js';

const folder = scratchFolder('yaniv-replay-');

let files = 0;
/** Writes the document (an object, or raw text) and runs `yaniv replay` on it. */
function replay(document: unknown, ...flags: string[]) {
  const file = join(folder(), `record-${files++}.json`);
  writeFileSync(file, typeof document === 'string' ? document : JSON.stringify(document, null, 1));
  return run(file, ...flags);
}

const run = (file: string, ...flags: string[]) => yanivWithin(30_000, 'replay', file, ...flags);

function json(stdout: string): Record<string, unknown> {
  return JSON.parse(stdout) as Record<string, unknown>;
}

/** RECORD.md's example round, and a second round in which seat 1 (the next starter) calls at once. */
function goodRecord() {
  return {
    format: 'yaniv-record/1',
    preset: 'standard',
    rules: { yanivThreshold: 7 },
    players: 3,
    startTotals: [0, 0, 0],
    rounds: [
      {
        starter: 0,
        hands: [
          ['AS', '2S', '3S', 'KH', 'KD'],
          ['9C', '9D', '4H', '5H', 'JK'],
          ['AC', 'AD', '2C', '2H', 'JK'],
        ],
        discard: '7H',
        deck: ['6C', '9H', '5D', 'JS'],
        reshuffles: [],
        moves: [{ discard: ['AS', '2S', '3S'], draw: 'deck' }, { discard: ['9C', '9D'], draw: '3S' }, { yaniv: true }] as Record<
          string,
          unknown
        >[],
      },
      {
        hands: [
          ['KS', 'QS', 'JS', '10S', '9S'],
          ['AH', '2H', '3H', 'AD', 'JK'],
          ['KC', 'QC', 'JC', '10C', '9C'],
        ],
        discard: '5D',
        deck: ['6D'],
        moves: [{ yaniv: true }] as Record<string, unknown>[],
      },
    ],
  };
}

const GOOD_RESULT = {
  ok: true,
  rounds: [
    { outcome: 'yaniv', caller: 2, handValues: [26, 12, 6], points: [26, 12, 0], totals: [26, 12, 0], eliminated: [], winner: 2 },
    // Seat 1 calls with 1 + 2 + 3 + 1 + 0 = 7; seats 0 and 2 hold 49 each.
    { outcome: 'yaniv', caller: 1, handValues: [49, 7, 49], points: [49, 0, 49], totals: [75, 12, 49], eliminated: [], winner: 1 },
  ],
  totals: [75, 12, 49],
  active: [0, 1, 2],
  gameOver: false,
  winner: null,
};

describe('yaniv replay: a good record', () => {
  it('--json prints the result and exits 0', () => {
    const { code, stdout, stderr } = replay(goodRecord(), '--json');
    expect(stderr).toBe('');
    expect(json(stdout)).toEqual(GOOD_RESULT);
    expect(code).toBe(0);
  });

  it('the table for people mentions every round and the totals', () => {
    const { code, stdout } = replay(goodRecord());
    expect(code).toBe(0);
    // Counted from 1 for people, as the page counts (the --json result above counts from 0: caller 2, then 1).
    expect(stdout).toContain('Round 1: yaniv by seat 3, won by seat 3');
    expect(stdout).toContain('Round 2: yaniv by seat 2, won by seat 2');
    expect(stdout).toContain('counted from 1');
    expect(stdout).toContain('Totals: 75 12 49');
    expect(stdout).toContain('The game goes on.');
  });

  it('a record that ends the game names the winner', () => {
    // Two players on 150 and 195. Seat 0: KH KD / deck (AH) leaves AS 2S 3S AH = 7; seat 1:
    // 9C 9D / deck (9H) leaves 4H 5H JK 9H = 18; seat 0 calls; seat 1 reaches 213 and is out.
    const record = {
      format: 'yaniv-record/1',
      players: 2,
      startTotals: [150, 195],
      rounds: [
        {
          hands: [
            ['AS', '2S', '3S', 'KH', 'KD'],
            ['9C', '9D', '4H', '5H', 'JK'],
          ],
          discard: '7H',
          deck: ['AH', '9H', '5D', 'JS'],
          moves: [{ discard: ['KH', 'KD'], draw: 'deck' }, { discard: ['9C', '9D'], draw: 'deck' }, { yaniv: true }],
        },
      ],
    };
    const { code, stdout } = replay(record, '--json');
    expect(json(stdout)).toEqual({
      ok: true,
      rounds: [{ outcome: 'yaniv', caller: 0, handValues: [7, 18], points: [0, 18], totals: [150, 213], eliminated: [1], winner: 0 }],
      totals: [150, 213],
      active: [0],
      gameOver: true,
      winner: 0,
    });
    expect(code).toBe(0);
    const human = replay(record);
    expect(human.stdout).toContain('Game over: seat 1 wins.');
    expect(human.stdout).toContain('in the game: seats 1');
    expect(human.stdout).toMatch(/eliminated/);
  });

  it('an unfinished last round is reported as such', () => {
    const record = goodRecord();
    record.rounds[1].moves = [];
    const { code, stdout } = replay(record, '--json');
    expect(json(stdout)).toMatchObject({
      ok: true,
      rounds: [GOOD_RESULT.rounds[0], { outcome: 'unfinished', caller: null, points: null, winner: null }],
    });
    expect(code).toBe(0);
  });

  it('a reshuffle order, when the deck runs out, is followed', () => {
    // Seat 0: QH 2C 3C 4C + 9S = 28; seat 1: QS 8D 8H 8C + 7D (the reshuffled deck) = 41.
    const { code, stdout } = replay(reshuffling([['7D']]), '--json');
    expect(json(stdout)).toMatchObject({ ok: true, rounds: [{ outcome: 'unfinished', handValues: [28, 41] }] });
    expect(code).toBe(0);
  });
});

/** Two players, one card in the deck: the second draw from the deck reshuffles the turned-up 7D. */
function reshuffling(reshuffles?: string[][]) {
  return {
    format: 'yaniv-record/1',
    players: 2,
    rounds: [
      {
        hands: [
          ['KH', 'QH', '2C', '3C', '4C'],
          ['KS', 'QS', '8D', '8H', '8C'],
        ],
        discard: '7D',
        deck: ['9S'],
        ...(reshuffles ? { reshuffles } : {}),
        moves: [
          { discard: ['KH'], draw: 'deck' },
          { discard: ['KS'], draw: 'deck' },
        ],
      },
    ],
  };
}

describe('yaniv replay: an illegal move exits 1 and names it', () => {
  const illegal = (round: number, move: number, change: Record<string, unknown>) => {
    const record = goodRecord();
    record.rounds[round].moves[move] = change;
    return record;
  };

  it.each([
    ['a group that is not legal', 0, 1, { discard: ['9C', '4H'], draw: 'deck' }, /9C 4H is not a legal group/],
    ['a card not in the hand', 0, 1, { discard: ['QS'], draw: 'deck' }, /QS is not in seat 1's hand/],
    [
      'the middle of a run',
      0,
      1,
      { discard: ['9C', '9D'], draw: '2S' },
      /2S cannot be taken: only the ends AS, 3S of the previous run may be taken/,
    ],
    ['a Yaniv above the threshold', 0, 0, { yaniv: true }, /seat 0 cannot call Yaniv with 26 > 7/],
    ['a move marked for the wrong seat', 0, 1, { discard: ['9C', '9D'], draw: '3S', player: 2 }, /seat 2's but it is seat 1's turn/],
  ])('%s', (_what, round, move, change, error) => {
    const { code, stdout } = replay(illegal(round, move, change), '--json');
    const result = json(stdout);
    expect(result).toMatchObject({ ok: false, round, move });
    expect(result.error).toMatch(error);
    expect(code).toBe(1);
  });

  it('without --json the message says where', () => {
    const { code, stdout } = replay(illegal(0, 1, { discard: ['9C', '4H'], draw: 'deck' }));
    expect(stdout).toMatch(/^Illegal move in round 1, move 2 \(rounds\[0\]\.moves\[1\]\): 9C 4H is not a legal group/);
    expect(code).toBe(1);
  });

  it('moves after the round is over', () => {
    const record = goodRecord();
    record.rounds[1].moves.push({ discard: ['KS'], draw: 'deck' });
    const { code, stdout } = replay(record, '--json');
    expect(json(stdout)).toMatchObject({ ok: false, round: 1, move: 1, error: 'the round is already over' });
    expect(code).toBe(1);
  });
});

describe('yaniv replay: a document that is not a valid record exits 2 and names the field', () => {
  const changed = (change: (record: ReturnType<typeof goodRecord> & Record<string, unknown>) => void) => {
    const record = goodRecord() as ReturnType<typeof goodRecord> & Record<string, unknown>;
    change(record);
    return record;
  };

  it.each([
    ['bad JSON', '{ "format": "yaniv-record/1", ', /not valid JSON/],
    ['not an object', '[1, 2]', /a record is a JSON object/],
    [
      'a wrong format',
      changed((r) => {
        r.format = 'yaniv-record/2';
      }),
      /format: must be "yaniv-record\/1"/,
    ],
    [
      'an unknown field',
      changed((r) => {
        r.player = 3;
      }),
      /unknown field "player"/,
    ],
    [
      'an unknown field in a move',
      changed((r) => {
        r.rounds[0].moves[0] = { discard: ['AS', '2S', '3S'], draws: 'deck' };
      }),
      /rounds\[0\]\.moves\[0\]: unknown field "draws"/,
    ],
    [
      'an unknown card',
      changed((r) => {
        r.rounds[0].hands[0][1] = '1S';
      }),
      /rounds\[0\]\.hands\[0\]\[1\]: "1S" is not a card/,
    ],
    [
      'a card used too often',
      changed((r) => {
        r.rounds[0].deck[0] = 'AS';
      }),
      /rounds\[0\]: AS is used 2 times but the decks hold 1/,
    ],
    [
      'a third joker',
      changed((r) => {
        r.rounds[0].deck[0] = 'JK';
      }),
      /rounds\[0\]: JK is used 3 times but the decks hold 2/,
    ],
    [
      'an option out of range',
      changed((r) => {
        r.rules = { yanivThreshold: 40 };
      }),
      /rules: rule option "yanivThreshold" must be an integer from 0 to 30 \(got 40\)/,
    ],
    [
      'an unknown option',
      changed((r) => {
        (r as Record<string, unknown>).rules = { threshold: 5 };
      }),
      /rules: unknown rule option "threshold"/,
    ],
    [
      'an unknown preset',
      changed((r) => {
        r.preset = 'israeli';
      }),
      /preset: unknown preset "israeli"; the presets are standard, israeli5/,
    ],
    [
      'a jokerless preset with a joker',
      changed((r) => {
        r.preset = 'nepal';
      }),
      /rounds\[0\]: JK is used 1 times but the decks hold 0/,
    ],
    [
      'too many players',
      changed((r) => {
        r.players = 9;
      }),
      /players: must be an integer from 2 to 8/,
    ],
    [
      'a hand of the wrong size',
      changed((r) => {
        r.rounds[0].hands[1].pop();
      }),
      /rounds\[0\]\.hands\[1\]: must hold handSize 5 cards, not 4/,
    ],
    [
      'a stated starter the rules contradict',
      changed((r) => {
        (r.rounds[1] as Record<string, unknown>).starter = 2;
      }),
      /rounds\[1\]\.starter: seat 2 is stated, but nextStarter "rotate" makes seat 1 start/,
    ],
    ['a missing reshuffle order', reshuffling(), /rounds\[0\]\.reshuffles: the deck runs out at move 1 but no reshuffle order/],
    [
      'a reshuffle of the wrong cards',
      reshuffling([['KH']]),
      /rounds\[0\]\.reshuffles\[0\]: must be an order of exactly the 1 cards reshuffled: 7D/,
    ],
    ['a reshuffle too many', reshuffling([['7D'], ['9S']]), /rounds\[0\]\.reshuffles: lists 2 reshuffles but the deck ran out 1 times/],
  ])('%s', (_what, document, message) => {
    const { code, stdout, stderr } = replay(document);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^yaniv replay: not a valid record: /);
    expect(stderr).toMatch(message);
    expect(code).toBe(2);
  });

  // The audit's document: a 10,000-deep array inside rounds[0].moves overflowed the stack while
  // the error message was built (a stack trace, exit 1). Deep nesting is written as text, since
  // JSON.stringify would recurse; test/env/rules/record.test.ts covers the other places.
  const deepArray = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
  const text = JSON.stringify(goodRecord());
  it.each([
    [
      'in a move',
      text.replace('"moves":[', `"moves":[${deepArray(10_000)},`),
      /^rounds\[0\]\.moves\[0\]: must be a move: .* \(got \[\[\[\[…\]\]\]\]\)$/,
    ],
    [
      'as a rule option',
      text.replace('"rules":{', `"rules":{"milestones":${deepArray(10_000)},`),
      /^rules: rule option "milestones\[0\]" must be a list of \[at, to\] pairs/,
    ],
  ])('deep nesting %s: exit 2 naming the field, not a stack overflow', (_where, document, message) => {
    const { code, stdout, stderr } = replay(document, '--json');
    expect(stderr).not.toMatch(/RangeError|Maximum call stack/);
    expect(json(stdout)).toEqual({ ok: false, error: expect.stringMatching(message) });
    expect(code).toBe(2);
  });

  // JSON.parse makes "__proto__" an own key; it used to vanish and the record replayed.
  it.each(['__proto__', 'toString'])('a rule option named %s is unknown', (name) => {
    const document = text.replace('"rules":{', `"rules":{${JSON.stringify(name)}:{"yanivThreshold":3},`);
    const { code, stdout, stderr } = replay(document);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      new RegExp(`^yaniv replay: not a valid record: rules: unknown rule option "${name}"; the rule options are decks, `),
    );
    expect(code).toBe(2);
  });

  it('--json prints the error as JSON', () => {
    const { code, stdout } = replay(
      changed((r) => {
        r.rounds[0].hands[0][1] = '1S';
      }),
      '--json',
    );
    expect(json(stdout)).toEqual({ ok: false, error: expect.stringMatching(/^rounds\[0\]\.hands\[0\]\[1\]: "1S" is not a card/) });
    expect(code).toBe(2);
  });

  it('a missing file', () => {
    const { code, stderr } = run(join(folder(), 'no-such-record.json'));
    expect(stderr).toMatch(/cannot read .*no-such-record\.json: ENOENT/);
    expect(code).toBe(2);
  });

  it('no file at all is a usage error', () => {
    const child = yanivWithin(30_000, 'replay');
    expect(child.stderr).toMatch(/missing required argument 'file'/);
    expect(child.code).toBe(2);
  });
});
