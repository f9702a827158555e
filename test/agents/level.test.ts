// `level`: the best bot at a chosen strength. It plays only legal moves under every preset and
// table size, is seeded and deterministic, decides the same in positions its seat cannot tell
// apart (no hidden card reaches it), never makes an absurd move the best bot would not, and at
// level 1 still makes most of the best bot's Yaniv calls.
import { describe, expect, it } from 'vitest';
import { HIGH_CARD, absurdMove, levelAgent, shippedLevelSizes, shippedLevels, yanivShareAt } from '../../agents/level.js';
import { PRESET_NAMES } from '../../env/rules/rules.js';
import { presetWithoutLevels, unratedTable } from './levelSizes.js';
import { createAgentFor, modelLines, resolveAgent } from '../../agents/resolve.js';
import { HandSlots, TAKE_START, YANIV_ACTION, discardIdOf } from '../../env/gym/actionLayout.js';
import { writeActionMask, MaskScratch } from '../../env/gym/actionMask.js';
import type { Agent, DecisionInput } from '../../env/gym/agent.js';
import { ACTION_COUNT } from '../../env/gym/actionLayout.js';
import { OBSERVATION_SIZE, encodeObservation } from '../../env/gym/observation.js';
import { applyAction } from '../../env/rules/actions.js';
import { type GameState } from '../../env/rules/state.js';
import { playerView } from '../../env/rules/view.js';
import { YanivEnv } from '../../env/gym/yanivEnv.js';
import { card, cards, game } from '../env/helpers.js';
import { RUNS, VARIANTS, randomPositions, scrambleHidden } from '../env/gym/envPositions.js';

/** The decision input of the seat to move. */
function inputOf(s: GameState): DecisionInput {
  const observation = new Float32Array(OBSERVATION_SIZE);
  encodeObservation(s, s.current, observation);
  const mask = new Uint8Array(ACTION_COUNT);
  writeActionMask(s, new MaskScratch(), mask, 0);
  return { observation, mask, view: playerView(s, s.current) };
}

const moving = (states: GameState[]) => states.filter((s) => inputOf(s).mask.some((m) => m === 1));

function discardOf(s: GameState, laid: string): number {
  const slots = new HandSlots();
  const view = playerView(s, s.current);
  slots.load(view.hand, 0, view.hand.length);
  const list = cards(laid);
  return discardIdOf(slots, list, 0, list.length);
}

describe('absurd moves', () => {
  const deal = (hand: string) => game({ hands: [hand, '3C 4C 8D 9H JD'], discard: 'KH', deck: ['5S', '6S', '7S', '8S'] });

  it('keeping a loose high card while laying fewer points is absurd; laying as much, or keeping a grouped one, is not', () => {
    const s = deal('2S 5H KD 9C 9D');
    const view = playerView(s, 0);
    expect(absurdMove(view, discardOf(s, '2S'))).toMatch(/keeps a loose high card/);
    expect(absurdMove(view, discardOf(s, 'KD'))).toBeNull();
    expect(absurdMove(view, discardOf(s, '9C 9D'))).toBeNull(); // 18 points laid
    const grouped = deal('2S 5H KD KC 9D');
    expect(absurdMove(playerView(grouped, 0), discardOf(grouped, '2S'))).toBeNull(); // the kings are a pair
    expect(absurdMove(view, YANIV_ACTION)).toMatch(/Yaniv call/);
  });

  it(`taking a high card (worth ${HIGH_CARD} or more) that makes no group is absurd; one that makes a group is not`, () => {
    const loose = deal('2S 5H QD 9C 9D');
    applyAction(loose, { type: 'discard', cards: cards('QD') });
    expect(absurdMove(playerView(loose, 0), TAKE_START + card('KH'))).toMatch(/takes a high card/);
    const pair = deal('2S 5H KD 9C 9D');
    applyAction(pair, { type: 'discard', cards: cards('9C 9D') });
    expect(absurdMove(playerView(pair, 0), TAKE_START + card('KH'))).toBeNull();
  });
});

describe('level agents', async () => {
  const best = await createAgentFor('neural', { players: 2 });
  const level = (temperature: number) => levelAgent(best, { temperature, yanivShare: yanivShareAt(temperature) }, `t${temperature}`);

  it('plays legally under every preset and table size, at every temperature', async () => {
    const variants = [...VARIANTS, { name: 'standard, heads-up', options: { players: 2 } }];
    let decisions = 0;
    for (const [v, { options }] of variants.entries()) {
      for (const temperature of [0, 3, 1000]) {
        const agent = level(temperature);
        agent.reset(v);
        for (const s of moving(randomPositions(options, 40 + v, 25 * RUNS))) {
          const input = inputOf(s);
          expect(input.mask[agent.act(input).action], `${options.preset ?? 'standard'} ${String(options.players)} seats`).toBe(1);
          decisions++;
        }
      }
    }
    expect(decisions).toBeGreaterThan(500);
    // A setting through the resolver: named by the spec it plays (its setting and best bot made explicit).
    const setting = await createAgentFor('level?temperature=2', { players: 2 });
    expect(setting.name).toBe(`level?temperature=2&yaniv=${yanivShareAt(2)}&best=neural`);
  });

  it('is seeded and deterministic, and decides the same in positions its seat cannot tell apart', () => {
    const positions = moving(VARIANTS.flatMap(({ options }, v) => randomPositions(options, 70 + v, 12 * RUNS)));
    const play = (agent: Agent, states: GameState[], seed: number) =>
      states.map((s) => {
        agent.reset(seed);
        return agent.act(inputOf(s)).action;
      });
    const a = level(4);
    const b = level(4);
    expect(play(a, positions, 9)).toEqual(play(b, positions, 9));
    const scrambled = positions.map((s, i) => scrambleHidden(s, s.current, 1000 + i));
    expect(play(a, scrambled, 9)).toEqual(play(b, positions, 9));
    // Another seed: other samples somewhere.
    expect(play(a, positions, 10)).not.toEqual(play(b, positions, 9));
  });
});

describe('the shipped levels', () => {
  const shipped = PRESET_NAMES.flatMap((preset) => shippedLevelSizes(preset).map((players) => ({ preset, players })));
  it.each(shipped)(
    '$preset at $players seats: at least 5 levels, measured at that table, rising, each inside its interval',
    ({ preset, players }) => {
      const file = shippedLevels(preset, players);
      expect(file).toMatchObject({ preset, players });
      const levels = file?.levels ?? [];
      expect(levels.length).toBeGreaterThanOrEqual(5);
      expect(levels.map((l) => l.level)).toEqual(levels.map((_, i) => i + 1));
      // Measured by a `yaniv rate` at this table of every level (not a plan's targets).
      expect(file?.ratedBy).toMatch(new RegExp(`^yaniv rate .* --players ${players} --rules ${preset} `));
      for (const l of levels) expect(file?.ratedBy).toMatch(new RegExp(`[',]level:${l.level}[,']`));
      for (const [i, l] of levels.entries()) {
        expect(l.low < l.rating && l.rating < l.high).toBe(true);
        if (i > 0) expect(l.rating).toBeGreaterThan(levels[i - 1].rating);
      }
      expect(levels.at(-1)?.temperature).toBe(0);
    },
  );
});

describe('a level hands its best bot the whole input', () => {
  it('reads an observation kept behind a getter on its class (as the server encodes it on first read)', () => {
    const env = new YanivEnv({ players: 3, seed: 5 });
    env.reset();
    const { observation, mask, view } = inputOf(env.getState());
    class ServerLikeInput implements DecisionInput {
      readonly explain = false;
      readonly view = view;
      readonly mask = mask;
      get observation() {
        return observation;
      }
    }
    const seen: (Float32Array | undefined)[] = [];
    const legal = [...mask.keys()].filter((id) => mask[id] === 1);
    const best: Agent = {
      name: 'recorder',
      reset: () => undefined,
      act: (input) => {
        seen.push(input.observation);
        expect(input.explain).toBe(true);
        return { action: legal[0], policy: { actions: legal, scores: legal.map(() => 1 / legal.length) } };
      },
    };
    levelAgent(best, { temperature: 1, yanivShare: 1 }, 'level').act(new ServerLikeInput());
    expect(seen).toEqual([observation]);
  });
});

describe('levels at a table', () => {
  it('resolve to their shipped setting over the best bot for the table, the nearest shipped size where none ship for it, or an error naming what ships', () => {
    const levels = shippedLevels('standard', 2);
    expect(levels?.levels.length).toBeGreaterThanOrEqual(8);
    const one = levels?.levels[0];
    const resolved = resolveAgent('level:1', { players: 2 });
    expect(resolved).toMatchObject({
      requested: 'level:1',
      kind: 'level',
      model: { kind: 'shipped', folder: 'models/standard' },
      fit: 'trained',
    });
    expect(resolved.via).toMatchObject({ kind: 'neural', model: { kind: 'shipped', folder: 'models/standard' } });
    expect(resolved.spec).toBe(`level?temperature=${String(one?.temperature)}&yaniv=${String(one?.yanivShare)}&best=neural`);
    expect(() => resolveAgent('level:99', { players: 2 })).toThrow(/level:99: the levels are 1 to \d+/);
    // At a size where none are rated: the nearest rated size's setting (said in the mismatch) over the best bot's model for that size.
    const { preset, unrated, nearest } = unratedTable();
    const there = resolveAgent('level:3', { preset, players: unrated });
    const rated = shippedLevels(preset, nearest)?.levels[2];
    const bestThere = resolveAgent('neural', { preset, players: unrated }).model;
    expect(there.spec).toBe(
      `level?temperature=${String(rated?.temperature)}&yaniv=${String(rated?.yanivShare)}&best=${encodeURIComponent(`neural:${bestThere?.kind === 'shipped' ? bestThere.folder : ''}`)}`,
    );
    expect(there).toMatchObject({ fit: 'nearest-size', model: bestThere });
    expect(there.mismatch).toMatch(new RegExp(`level rated at ${nearest} seats at ${unrated}`));
    const withoutLevels = presetWithoutLevels();
    expect(() => resolveAgent('level:1', { preset: withoutLevels, players: 2 })).toThrow(
      new RegExp(`no levels ship for the ${withoutLevels} rules`),
    );
    // Levels rated at the table over a model trained at another size: the model's fit is what it says.
    const ratedOverFour = resolveAgent('level:1', { players: 5 });
    expect(shippedLevels('standard', 5)).not.toBeNull();
    expect(ratedOverFour).toMatchObject({ fit: resolveAgent('neural', { players: 5 }).fit });
    expect(ratedOverFour.fit).not.toBe('trained');
    expect(modelLines([ratedOverFour]).join('\n')).not.toMatch(/trained for standard at 5 seats/);
    expect(() => resolveAgent('level:1?yaniv=1', { players: 2 })).toThrow(/takes no parameters/);
  });
});

describe.skipIf(shippedLevels('standard', 2) === null)('the shipped level 1, heads-up', () => {
  it('makes most of the best bot’s Yaniv calls and no absurd move the best bot would not make', async () => {
    const best = await createAgentFor('neural', { players: 2 });
    const one = await createAgentFor('level:1', { players: 2 });
    // Whole games, level 1 in seat 0 against the best bot: at each of its decisions, what the best bot would do.
    let calls = 0;
    let kept = 0;
    let absurd = 0;
    let decisions = 0;
    one.reset(1);
    for (let g = 0; g < 20 * RUNS; g++) {
      const env = new YanivEnv({ players: 2, seed: 20 + g });
      let { info } = env.reset();
      while (info.currentPlayer >= 0) {
        const input = inputOf(env.getState());
        const theirs = best.act(input).action;
        if (info.currentPlayer === 0) {
          decisions++;
          const ours = one.act(input).action;
          if (theirs === YANIV_ACTION) {
            calls++;
            if (ours === YANIV_ACTION) kept++;
          }
          if (ours !== theirs && absurdMove(input.view, ours) !== null) absurd++;
          ({ info } = env.step(ours));
        } else ({ info } = env.step(theirs));
      }
    }
    expect(decisions).toBeGreaterThan(200);
    expect(calls).toBeGreaterThan(20);
    expect(kept / calls).toBeGreaterThan(0.6);
    expect(absurd).toBe(0);
  });
});
