/**
 * `yaniv-view/1`: one seat's view of a position as JSON, in the words a frontend already has
 * (its own hand, each seat's hand size and the cards known to be held, the previous group and
 * its pickable cards, pile, deck size, totals). The server sends every table seat its view in
 * this form, and the advisor takes it back: `viewToJson` writes it from the engine's
 * `playerView`, `viewFromJson` reads it into a `PlayerView` after checking that it is a
 * position that can exist (errors name the field).
 */
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { intFrom } from '../../support/zod.js';
import {
  type Card,
  GROUP_CAP,
  KIND_COUNT,
  MAX_PLAYERS,
  MIN_PLAYERS,
  PHASE_NAMES,
  type PlayerView,
  type Rules,
  RuleError,
  cardName,
  classifyLaid,
  deckComposition,
  formatCards,
  ruleErrorField,
  ruleSelectionSchema,
  parseCard,
  resolveRules,
  ruleTables,
} from '../../env/index.js';
import { GROUP_TYPE_NAMES, type GroupTypeName, groupTypeOf, pickableMask } from '../../env/rules/groups.js';
import { ProtocolError } from './errors.js';

export const VIEW_FORMAT = 'yaniv-view/1';

/** Card names as the records write them: rank A 2..10 J Q K and suit S H D C, or JK (either case). */
export const CARD_PATTERN = /^(?:[Aa2-9JjQqKk]|10)[SHDCshdc]$|^[Jj][Kk]$/;
export const cardSchema = z.string().regex(CARD_PATTERN, { error: 'must be a card name such as "10H", "QS" or "JK"' });
const cards = (max: number) =>
  z.array(cardSchema, { error: 'must be a list of card names' }).max(max, { error: `must hold at most ${max} cards` });
const seat = intFrom(0, MAX_PLAYERS - 1, 'a seat');
const perSeat = <T extends z.ZodType>(item: T) =>
  z.array(item).min(MIN_PLAYERS, { error: 'must have one entry per seat' }).max(MAX_PLAYERS, { error: 'must have one entry per seat' });
const MAX_CARDS = 2 * 56;
const groupType = z.enum(['single', 'set', 'run'], { error: 'must be "single", "set" or "run"' });

export const viewJsonSchema = z
  .strictObject({
    format: z.literal(VIEW_FORMAT, { error: `must be "${VIEW_FORMAT}"` }),
    preset: ruleSelectionSchema.shape.preset.describe('Rule preset (welcome.presets).'),
    rules: ruleSelectionSchema.shape.rules.describe('Rule option overrides on top of the preset (welcome.ruleOptions).'),
    players: intFrom(MIN_PLAYERS, MAX_PLAYERS).describe('Seats at the table.'),
    seat: seat.describe('Whose view this is.'),
    current: seat.describe('The seat to move.'),
    phase: z
      .enum(PHASE_NAMES, { error: `must be one of ${PHASE_NAMES.map((p) => JSON.stringify(p)).join(', ')}` })
      .describe(
        '"turn": call Yaniv or lay a group; "draw": take from the deck or the previous group; "afterDraw": quick discard / slapdown / pass. The advisor needs one of these three.',
      ),
    round: intFrom(1, 1_000_000).default(1).describe('Rounds dealt so far (1 in the first round).'),
    turn: intFrom(0, 1_000_000).default(0).describe('Turns completed in this round.'),
    dealer: seat.optional().describe('Default: the seat before the starter.'),
    starter: seat.optional().describe('The seat that started this round. Default: the seat to move.'),
    hand: cards(GROUP_CAP).describe("The seat's own hand (any order)."),
    handValue: intFrom(0, 1000).optional().describe('Its value; checked when given.'),
    drawn: cardSchema.nullable().default(null).describe('The card the seat drew this turn (its own after-draw step only).'),
    drawnFromDeck: z
      .boolean()
      .nullable()
      .default(null)
      .describe('Whether the player to move drew from the deck this turn; null before the draw.'),
    handSizes: perSeat(intFrom(0, GROUP_CAP)).describe("Cards in each seat's hand."),
    known: perSeat(cards(GROUP_CAP)).describe('Per seat: the cards it took from the pile in view of all and still holds.'),
    previous: z
      .strictObject({
        type: groupType,
        cards: cards(GROUP_CAP).describe('What is left of it, in laid order (empty once its last card was taken this turn).'),
        pickable: cards(GROUP_CAP).describe('Its cards that may be taken.'),
      })
      .describe('The group the previous player laid: the one the player to move may take from.'),
    laid: z
      .strictObject({ type: groupType, cards: cards(GROUP_CAP).min(1) })
      .nullable()
      .default(null)
      .describe('The group the player to move laid this turn (draw and after-draw steps).'),
    pile: cards(MAX_CARDS).default([]).describe('Discards out of reach (any order).'),
    deckSize: intFrom(0, MAX_CARDS).describe('Cards left in the deck.'),
    totals: perSeat(intFrom(-100_000, 100_000)).describe("Each seat's total."),
    active: perSeat(z.boolean()).optional().describe('Seats still in the game (default: all).'),
    yanivWins: perSeat(intFrom(0, 100_000)).optional().describe('Successful Yaniv calls per seat (gameEnd "yanivCount"; default 0).'),
  })
  .describe(`${VIEW_FORMAT}: what one seat knows of a position.`)
  .meta({ id: 'YanivView' });

/** A view as validated by the schema (defaults filled in). */
export type ViewJson = z.output<typeof viewJsonSchema>;

const byKind = (a: number, b: number) => a - b;

/** The JSON form of a view; `preset` and `rules` are how the table's rules were picked. */
export function viewToJson(view: PlayerView, preset: string, rules: Record<string, unknown>): ViewJson {
  return {
    format: VIEW_FORMAT,
    preset,
    rules,
    players: view.players,
    seat: view.seat,
    current: view.current,
    phase: view.phase,
    round: view.round,
    turn: view.turn,
    dealer: view.dealer,
    starter: view.starter,
    hand: view.hand.map(cardName),
    handValue: view.handValue,
    drawn: view.drawn === null ? null : cardName(view.drawn),
    drawnFromDeck: view.drawnFromDeck,
    handSizes: [...view.handSizes],
    known: view.known.map((list) => list.map(cardName)),
    previous: { type: view.previous.type, cards: view.previous.cards.map(cardName), pickable: view.previous.pickable.map(cardName) },
    laid: view.laid && { type: view.laid.type, cards: view.laid.cards.map(cardName) },
    pile: view.pile.map(cardName),
    deckSize: view.deckSize,
    totals: [...view.totals],
    active: [...view.active],
    yanivWins: [...view.yanivWins],
  };
}

const fail = (field: string, message: string): never => {
  throw new ProtocolError('bad_message', message, field);
};
const parse = (names: readonly string[]): Card[] => names.map((name) => parseCard(name) as Card);

/**
 * The PlayerView a JSON view stands for, checked for consistency: one entry per seat, sizes
 * that match, no card more often than the decks hold, all cards accounted for, a phase
 * inside a round with what it implies. Throws ProtocolError('bad_message') naming the field.
 * `prefix` is put before field names (`view.`).
 */
export function viewFromJson(json: ViewJson, prefix = ''): PlayerView {
  const at = (field: string) => prefix + field;
  const rules = settleRules(json, at);
  const n = json.players;
  for (const field of ['handSizes', 'known', 'totals', 'active', 'yanivWins'] as const) {
    const list = json[field];
    if (list && list.length !== n) fail(at(field), `must have one entry per seat: ${n}, not ${list.length}`);
  }
  if (json.seat >= n) fail(at('seat'), `seat ${json.seat} does not exist with ${n} players`);
  if (json.current >= n) fail(at('current'), `seat ${json.current} does not exist with ${n} players`);
  const active = json.active ?? Array<boolean>(n).fill(true);
  const hand = parse(json.hand).sort(byKind);
  const known = json.known.map((list) => parse(list).sort(byKind));
  checkSeats(json, active, hand, known, at);
  const previous = checkPrevious(json, at);
  const laid = json.laid && { type: json.laid.type, cards: parse(json.laid.cards) };
  const drawn = json.drawn === null ? null : (parseCard(json.drawn) as Card);
  checkPhase(json, hand, drawn, at);
  checkGroups(json, rules, previous, laid, at);
  checkHandSizes(json, rules, active, laid?.cards.length ?? 0, at);
  const pile = parse(json.pile).sort(byKind);
  checkCounts(json, rules, { hand, known, previous: previous.cards, laid: laid?.cards ?? [], pile }, at);
  const values = ruleTables(rules).values;
  const handValue = hand.reduce((sum, card) => sum + values[card], 0);
  if (json.handValue !== undefined && json.handValue !== handValue)
    fail(at('handValue'), `is ${json.handValue} but the hand ${json.hand.join(' ')} is worth ${handValue}`);
  const starter = json.starter ?? json.current;
  return {
    seat: json.seat,
    players: n,
    rules,
    phase: json.phase,
    current: json.current,
    round: json.round,
    turn: json.turn,
    dealer: json.dealer ?? (starter + n - 1) % n,
    starter,
    hand,
    handValue,
    handSizes: [...json.handSizes],
    known,
    previous,
    laid,
    drawn,
    drawnFromDeck: json.drawnFromDeck,
    deckSize: json.deckSize,
    pile,
    totals: [...json.totals],
    active,
    yanivWins: json.yanivWins ?? Array<number>(n).fill(0),
    lastResult: null,
    winner: null,
  };
}

/** Settled rules by selection: advisors see the same few rule sets again and again (any a client names: the least recently asked go first). */
const settled = new LRUCache<string, Rules>({ max: 256 });

function settleRules(json: ViewJson, at: (field: string) => string): Rules {
  const key = JSON.stringify([json.preset, json.rules, json.players]);
  const known = settled.get(key);
  if (known) return known;
  try {
    const rules = resolveRules({ preset: json.preset, rules: json.rules, players: json.players });
    settled.set(key, rules);
    return rules;
  } catch (error) {
    if (error instanceof RuleError) fail(at(ruleErrorField(json.preset)), error.message);
    throw error;
  }
}

function checkSeats(json: ViewJson, active: readonly boolean[], hand: Card[], known: Card[][], at: (field: string) => string): void {
  if (!active[json.seat]) fail(at('active'), `seat ${json.seat} (the view's seat) is out of the game`);
  if (!active[json.current]) fail(at('active'), `seat ${json.current} (the seat to move) is out of the game`);
  json.handSizes.forEach((size, p) => {
    if (!active[p] && (size !== 0 || known[p].length > 0)) fail(at(`handSizes[${p}]`), `seat ${p} is out of the game: it holds no cards`);
    if (known[p].length > size) fail(at(`known[${p}]`), `seat ${p} holds ${size} cards but ${known[p].length} are known`);
  });
  if (hand.length !== json.handSizes[json.seat])
    fail(at('hand'), `holds ${hand.length} cards but handSizes[${json.seat}] is ${json.handSizes[json.seat]}`);
  const left = new Uint8Array(KIND_COUNT);
  for (const card of hand) left[card]++;
  for (const card of known[json.seat]) {
    if (left[card]-- === 0)
      fail(at(`known[${json.seat}]`), `${cardName(card)} is known to be in the seat's own hand, but the hand does not hold it`);
  }
}

/** The previous group with its pickable cards in position order (the order determinisation and the engine use). */
function checkPrevious(json: ViewJson, at: (field: string) => string): PlayerView['previous'] {
  const cards = parse(json.previous.cards);
  const wanted = new Uint8Array(KIND_COUNT);
  for (const card of parse(json.previous.pickable)) wanted[card]++;
  const pickable: Card[] = [];
  for (const card of cards) {
    if (wanted[card] > 0) {
      wanted[card]--;
      pickable.push(card);
    }
  }
  const extra = wanted.findIndex((count) => count > 0);
  if (extra >= 0)
    fail(at('previous.pickable'), `${cardName(extra)} is not among the previous group's cards ${json.previous.cards.join(' ')}`);
  if (json.previous.type === 'single' && cards.length > 1) fail(at('previous.cards'), `a single is one card, not ${cards.length}`);
  return { type: json.previous.type, cards, pickable };
}

function checkPhase(json: ViewJson, hand: Card[], drawn: Card | null, at: (field: string) => string): void {
  const { phase } = json;
  if (phase === 'betweenRounds' || phase === 'gameOver')
    fail(at('phase'), `no one is to move in phase "${phase}": the view must be of a turn, draw or afterDraw step`);
  if (phase === 'turn' && json.laid !== null) fail(at('laid'), 'must be null in the turn step (nothing is laid yet)');
  if (phase !== 'turn' && json.laid === null) fail(at('laid'), `the player to move has laid a group before the ${phase} step: give it`);
  if (phase !== 'afterDraw' && (drawn !== null || json.drawnFromDeck !== null))
    fail(at(drawn !== null ? 'drawn' : 'drawnFromDeck'), `must be null before the draw (phase "${phase}")`);
  if (phase === 'afterDraw') {
    if (json.seat !== json.current)
      fail(at('seat'), `in the after-draw step only seat ${json.current}, who is to move, knows the card drawn`);
    if (drawn === null) fail(at('drawn'), 'the after-draw step needs the card drawn');
    if (json.drawnFromDeck === null) fail(at('drawnFromDeck'), 'the after-draw step needs whether the card came from the deck');
    if (drawn !== null && !hand.includes(drawn)) fail(at('drawn'), `${cardName(drawn)} was drawn but is not in the hand`);
  }
}

/**
 * The groups as the rules make them (the rules core classifies them and says which cards may be
 * taken): the group laid this turn, and the previous group while it is whole — in the turn and
 * draw steps, and after a deck draw (after a take, what is left of it need not be a group).
 */
function checkGroups(
  json: ViewJson,
  rules: Rules,
  previous: PlayerView['previous'],
  laid: PlayerView['laid'],
  at: (field: string) => string,
): void {
  if (laid) checkShape(laid.cards, laid.type, rules, at('laid'));
  const whole = json.phase !== 'afterDraw' || json.drawnFromDeck === true;
  if (!whole) return;
  const cards = parse(json.previous.cards);
  if (cards.length === 0) fail(at('previous.cards'), 'the previous group is whole until the player to move draws: give its cards');
  checkShape(cards, json.previous.type, rules, at('previous'));
  const mask = pickableMask(groupTypeOf(json.previous.type), cards.length, rules);
  const allowed = cards.filter((_, i) => (mask >> i) & 1);
  const given = parse(json.previous.pickable);
  if (formatCards([...allowed].sort(byKind)) !== formatCards([...given].sort(byKind))) {
    const rule = json.previous.type === 'run' ? `pickFromRun "${rules.pickFromRun}"` : `pickFromSet "${rules.pickFromSet}"`;
    fail(
      at('previous.pickable'),
      `is ${formatCards(given) || 'empty'}, but the cards that may be taken from the ${json.previous.type} ${formatCards(cards)} are ${formatCards(allowed)}${json.previous.type === 'single' ? '' : ` (${rule})`}`,
    );
  }
}

/** A group's cards, in laid order, are a legal group of the type given. */
function checkShape(cards: readonly Card[], type: GroupTypeName, rules: Rules, field: string): void {
  const classified = classifyLaid(cards, rules);
  if ('error' in classified) fail(`${field}.cards`, classified.error);
  else if (GROUP_TYPE_NAMES[classified.type] !== type)
    fail(`${field}.type`, `is "${type}", but ${formatCards(cards)} is a ${GROUP_TYPE_NAMES[classified.type]}`);
}

/**
 * Hand sizes a table can reach: a hand is dealt `handSize` cards and every turn lays at least one
 * and draws one, so no hand holds more (the mover, after laying `laid` cards, that many fewer
 * until it draws); a hand is empty only after a quick discard laid its last card (rule
 * quickDiscard), or in the mover's draw step after laying it all.
 */
function checkHandSizes(json: ViewJson, rules: Rules, active: readonly boolean[], laid: number, at: (field: string) => string): void {
  json.handSizes.forEach((size, p) => {
    if (!active[p]) return;
    const field = at(p === json.seat ? 'hand' : `handSizes[${p}]`);
    const mover = p === json.current;
    const most = rules.handSize - (mover && json.phase === 'draw' ? laid : mover && json.phase === 'afterDraw' ? laid - 1 : 0);
    if (size > most)
      fail(
        field,
        `seat ${p} holds ${size} cards, more than it can (${most}): hands are dealt ${rules.handSize} cards and each turn lays at least one before drawing one${mover && json.phase !== 'turn' ? `, and it laid ${laid} this turn` : ''}`,
      );
    const emptyOk = mover ? json.phase === 'draw' || (json.phase === 'turn' && rules.quickDiscard) : rules.quickDiscard;
    if (size === 0 && !emptyOk)
      fail(
        field,
        mover && json.phase === 'afterDraw'
          ? `seat ${p} has just drawn a card: its hand cannot be empty`
          : `seat ${p} holds no cards in the ${json.phase} step: a hand is empty only after a quick discard laid its last card (rule quickDiscard, off here)`,
      );
  });
}

interface Seen {
  hand: Card[];
  known: Card[][];
  previous: readonly Card[];
  laid: readonly Card[];
  pile: Card[];
}

/** No card shown more often than the decks hold, and every card of the decks somewhere. */
function checkCounts(json: ViewJson, rules: Rules, seen: Seen, at: (field: string) => string): void {
  const composition = deckComposition(rules.decks, rules.jokersPerDeck);
  const used = new Uint8Array(KIND_COUNT);
  const take = (list: readonly Card[], field: string) => {
    for (const card of list) {
      if (++used[card] > composition[card]) {
        fail(
          at(field),
          `${cardName(card)} is shown ${used[card]} times in all but the decks hold ${composition[card]} (decks ${rules.decks}, jokersPerDeck ${rules.jokersPerDeck})`,
        );
      }
    }
  };
  take(seen.hand, 'hand');
  seen.known.forEach((list, p) => {
    if (p !== json.seat) take(list, `known[${p}]`);
  });
  take(seen.previous, 'previous.cards');
  take(seen.laid, 'laid.cards');
  take(seen.pile, 'pile');
  const total = composition.reduce((a, b) => a + b, 0);
  const inHands = json.handSizes.reduce((a, b) => a + b, 0);
  const accounted = inHands + seen.previous.length + seen.laid.length + seen.pile.length + json.deckSize;
  if (accounted !== total) {
    fail(
      at('deckSize'),
      `the cards do not add up: hands ${inHands} + previous ${seen.previous.length} + laid ${seen.laid.length} + pile ${seen.pile.length} + deck ${json.deckSize} = ${accounted}, but the decks hold ${total}`,
    );
  }
}
