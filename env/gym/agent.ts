/**
 * The one decision interface used everywhere: `SingleAgentEnv`'s opponents, tournaments, the
 * trainer's evaluation games and the server. An agent sees the acting seat's observation, the
 * legal-action mask (actionMask.ts) and the seat's own view of the position; it returns an
 * action id, and may return a policy (a score per legal action and a value estimate) that the
 * server's advisor mode shows. The agents themselves live in agents/.
 */
import type { PlayerView } from '../rules/view.js';

export interface DecisionInput {
  /** The acting seat's observation (env/observation.ts). */
  readonly observation: Float32Array;
  /** 1 for each legal action id. */
  readonly mask: Uint8Array;
  /** The acting seat's own view of the position. */
  readonly view: PlayerView;
  /**
   * Set by callers that show the policy (the server's advisor): agents that can explain their
   * choice return `policy` then, and may skip that work otherwise. The action is the same either way.
   */
  readonly explain?: boolean;
}

/**
 * The same input asking for the policy. Not `{ ...input, explain: true }`: an input may read its
 * observation through a getter on its class (the server encodes it on first read), which a spread
 * does not copy — the inner agent would get no observation.
 */
export function explaining(input: DecisionInput): DecisionInput {
  return new ExplainingInput(input);
}

class ExplainingInput implements DecisionInput {
  readonly explain = true;

  constructor(private readonly inner: DecisionInput) {}

  get observation(): Float32Array {
    return this.inner.observation;
  }

  get mask(): Uint8Array {
    return this.inner.mask;
  }

  get view(): PlayerView {
    return this.inner.view;
  }
}

export interface Policy {
  /** Legal action ids, best first. */
  readonly actions: readonly number[];
  /** A score per action of `actions` (higher is better; probabilities for neural agents). */
  readonly scores: readonly number[];
  /** Estimated outcome for the seat, in the agent's own units (documented per agent). */
  readonly value?: number;
}

export interface Decision {
  readonly action: number;
  readonly policy?: Policy;
}

export interface Agent {
  readonly name: string;
  /** Re-seeds the agent's own randomness; tournaments call it before every game. */
  reset(seed: number): void;
  act(input: DecisionInput): Decision;
  /**
   * Decides for many positions at once (one inference call for a neural agent); each input is
   * decided as `act` would. Agents without it are called once per input.
   */
  actBatch?(inputs: readonly DecisionInput[]): Decision[];
}

/** Decides many positions: one `actBatch` call where the agent has it, else `act` for each. */
export function decideAll(agent: Agent, inputs: readonly DecisionInput[]): Decision[] {
  return agent.actBatch ? agent.actBatch(inputs) : inputs.map((input) => agent.act(input));
}
