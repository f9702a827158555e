// One agent for the opening, another for the duel: once two seats are left in play the duellist
// decides every move, and batched decisions come back in their inputs' order.
import { describe, expect, it } from 'vitest';
import { withDuellist } from '../../../agents/bots/duel.js';
import { parseAgentSpec } from '../../../agents/registry.js';
import { createAgentFor } from '../../../agents/resolve.js';
import { seatsInPlay } from '../../../agents/bots/tactics.js';
import type { Agent, DecisionInput } from '../../../env/gym/agent.js';
import { YanivEnv } from '../../../env/gym/yanivEnv.js';
import { playerView } from '../../../env/rules/view.js';
import { initBackend } from '../../../nn/backend.js';

/** An agent that plays as `inner` and notes the seats in play at each position it is asked about. */
const noting = (inner: Agent) => {
  const seen: number[] = [];
  const agent: Agent = {
    name: inner.name,
    reset: (seed) => inner.reset(seed),
    act(input) {
      seen.push(seatsInPlay(input.view));
      return inner.act(input);
    },
  };
  return { agent, seen };
};

/** The decisions of one three-seat game played to its end by `agent` in every seat (copies: the game moves on). */
function playGame(agent: Agent, seed: number): DecisionInput[] {
  const env = new YanivEnv({ players: 3 });
  let step = env.reset({ seed });
  const inputs: DecisionInput[] = [];
  while (step.info.currentPlayer >= 0 && inputs.length < 20_000) {
    const input = { observation: step.observation, mask: step.info.actionMask, view: playerView(env.state, step.info.currentPlayer) };
    inputs.push(structuredClone(input));
    step = env.step(agent.act(input).action);
  }
  return inputs;
}

describe('withDuellist', () => {
  it('lets the duellist decide once two seats are left in play, and the main agent before', async () => {
    const main = noting(await createAgentFor('intermediate', { players: 2 }));
    const duellist = noting(await createAgentFor('strong', { players: 2 }));
    const inputs = playGame(withDuellist(main.agent, duellist.agent), 4);
    expect(main.seen.length).toBeGreaterThan(0);
    expect(duellist.seen.length).toBeGreaterThan(0);
    expect(new Set(main.seen)).toEqual(new Set([3]));
    expect(new Set(duellist.seen)).toEqual(new Set([2]));
    expect(main.seen.length + duellist.seen.length).toBe(inputs.length);
  });
  it('answers a mixed batch in its order, each input as act answers it', async () => {
    const agent = withDuellist(await createAgentFor('intermediate', { players: 2 }), await createAgentFor('strong', { players: 2 }));
    const inputs = playGame(agent, 9);
    const mixed = [...inputs.slice(0, 40), ...inputs.slice(-40)].sort((a, b) => a.observation[0] - b.observation[0]);
    expect(new Set(mixed.map((input) => seatsInPlay(input.view)))).toEqual(new Set([2, 3]));
    expect(agent.actBatch?.(mixed).map((d) => d.action)).toEqual(mixed.map((input) => agent.act(input).action));
  });
  it('is what neural?duel=FOLDER plays: the named model once two seats are left, its own before', async () => {
    await initBackend('wasm');
    const spec = 'neural:models/standard-4?duel=models/standard';
    expect(parseAgentSpec(spec).params.duel).toBe('models/standard');
    const [staged, opening, duel] = await Promise.all(
      [spec, 'neural:models/standard-4', 'neural:models/standard'].map((s) => createAgentFor(s, { players: 2 })),
    );
    const inputs = playGame(staged, 4);
    for (const input of inputs.filter((_, i) => i % 7 === 0))
      expect(staged.act(input).action).toBe((seatsInPlay(input.view) === 2 ? duel : opening).act(input).action);
  });
});
