/** `random`: uniform over the legal actions of each phase, seeded. */
import { randomLegalAction } from '../../env/gym/actionMask.js';
import { type Rng, seededRng } from '../../env/rules/random.js';
import type { Agent } from '../../env/gym/agent.js';

export function randomAgent(): Agent {
  let rng: Rng = seededRng(0);
  return {
    name: 'random',
    reset(seed) {
      rng = seededRng(seed);
    },
    act({ mask }) {
      return { action: randomLegalAction(mask, rng) };
    },
  };
}
