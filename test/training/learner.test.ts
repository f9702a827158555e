// The learner's choice of the parts it trains on (Learner.canUse): recent enough, and gathered in
// the mode it asks for now — at the switch from imitation to PPO a late imitation part must not
// open a take that then waits for imitation parts no actor sends any more.
import { beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../../nn/backend.js';
import { hyperParametersSchema, runOptionsSchema } from '../../training/config.js';
import { Learner } from '../../training/learner.js';
import { emptyRolloutStats, emptyTrajectoryBatch } from '../../training/trajectory.js';
import type { TrajectoryPart } from '../../training/transport.js';
import type { CollectMode } from '../../training/rollout.js';

const part = (mode: CollectMode, weightsVersion = 0): TrajectoryPart => ({
  actor: 'a',
  weightsVersion,
  mode,
  trajectories: emptyTrajectoryBatch(1, false),
  stats: emptyRolloutStats(),
});

describe('Learner.canUse', () => {
  beforeAll(async () => {
    await initBackend('wasm');
  });

  it('takes the parts of the mode it asks for now: at the switch to PPO, no imitation part', async () => {
    const run = runOptionsSchema.parse({ episodes: 100, out: '/tmp/unused-learner-test' });
    const hp = hyperParametersSchema.parse({ hiddenUnits: [4], imitationEpisodes: 4 });
    const learner = await Learner.fresh(run, hp, ['yaniv', 'train']);
    const imitation: CollectMode = { kind: 'imitation', teacherPlays: true };
    expect(learner.collectMode().kind).toBe('imitation');
    expect(learner.canUse(part(imitation))).toBe(true);
    expect(learner.canUse(part({ kind: 'ppo' }))).toBe(false);
    // The imitation episodes are played; the phase turns only with the first PPO update.
    learner.state.episodes = 4;
    expect(learner.state.phase).toBe('imitation');
    expect(learner.collectMode().kind).toBe('ppo');
    expect(learner.canUse(part(imitation))).toBe(false);
    expect(learner.canUse(part({ kind: 'ppo' }))).toBe(true);
    learner.dispose();
  });
});
