// Random positions for environment tests: seeded random play through YanivEnv.
import { type EnvOptions } from '../../../env/gym/episode.js';
import { KIND_COUNT } from '../../../env/rules/cards.js';
import { randomInt, seededRng, shuffleInPlace } from '../../../env/rules/random.js';
import { type GameState, HAND_CAP, cloneState } from '../../../env/rules/state.js';
import { YanivEnv } from '../../../env/gym/yanivEnv.js';

/** Rule settings that exercise every corner of the action space: every preset, one and two decks, the after-draw rules. */
export const VARIANTS: { name: string; options: EnvOptions }[] = [
  ...['standard', 'israeli5', 'pagat', 'dutch', 'norwegian', 'nepal', 'family'].flatMap((preset) =>
    [1, 2].map((decks) => ({
      name: `${preset}, ${decks} deck${decks > 1 ? 's' : ''}`,
      options: { preset, players: 4, rules: { decks } },
    })),
  ),
  {
    name: 'two decks, 8 jokers, ends everywhere, quick discards and slapdowns',
    options: { players: 3, rules: { decks: 2, jokersPerDeck: 4, pickFromSet: 'ends', quickDiscard: true, slapdown: true, handSize: 7 } },
  },
  {
    name: 'one deck, 4 jokers, quick discards, 8 players',
    options: { players: 8, rules: { jokersPerDeck: 4, quickDiscard: true, slapdown: true, yanivThreshold: 15 } },
  },
  {
    name: 'any card of a run, ends of sets, 2 players',
    options: { players: 2, rules: { pickFromRun: 'any', pickFromSet: 'ends', handSize: 7 } },
  },
];

/** Every position met in `steps` random steps (random legal ids; whole games, resets in between). */
export function randomPositions(options: EnvOptions, seed: number, steps: number): GameState[] {
  const env = new YanivEnv({ ...options, history: false });
  const rng = seededRng(seed);
  let { info } = env.reset({ seed });
  const states: GameState[] = [env.getState()];
  for (let i = 0; i < steps; i++) {
    const result = env.step(info.legalIds[randomInt(rng, 0, info.legalCount - 1)]);
    info = result.info;
    if (result.terminated || result.truncated) info = env.reset().info;
    states.push(env.getState());
  }
  return states;
}

export const RUNS = process.env.YANIV_PROPERTY_RUNS === 'long' ? 20 : 1;

/** The same position with everything `seat` cannot know dealt afresh: opponents' unknown cards, the deck order, the PRNG. */
export function scrambleHidden(s: GameState, seat: number, seed: number): GameState {
  const t = cloneState(s);
  const rng = seededRng(seed);
  const pool: number[] = [];
  const slots: [number, number][] = [];
  for (let p = 0; p < t.players; p++) {
    if (p === seat) continue;
    const known = new Map<number, number>();
    for (let k = 0; k < KIND_COUNT; k++) if (t.known[p * KIND_COUNT + k]) known.set(k, t.known[p * KIND_COUNT + k]);
    for (let i = 0; i < t.handLength[p]; i++) {
      const card = t.hands[p * HAND_CAP + i];
      const left = known.get(card) ?? 0;
      if (left > 0) known.set(card, left - 1);
      else {
        pool.push(card);
        slots.push([p, i]);
      }
    }
  }
  for (let i = 0; i < t.deckLength; i++) pool.push(t.deck[i]);
  shuffleInPlace(rng, pool);
  slots.forEach(([p, i], j) => {
    t.hands[p * HAND_CAP + i] = pool[j];
  });
  for (let i = 0; i < t.deckLength; i++) t.deck[i] = pool[slots.length + i];
  // Hand order is hidden too, even for one's own hand.
  const own = Array.from(t.hands.subarray(seat * HAND_CAP, seat * HAND_CAP + t.handLength[seat]));
  shuffleInPlace(rng, own);
  own.forEach((card, i) => {
    t.hands[seat * HAND_CAP + i] = card;
  });
  t.rng = seededRng(seed + 1);
  return t;
}
