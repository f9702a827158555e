// The registry's rows say what an agent kind does, so no caller branches on its name: here which
// kinds a server may publish new model versions for (serve/inference/models.ts, yaniv publish-model).
import { describe, expect, it } from 'vitest';
import { AGENT_NAMES, takesPublishedModels } from '../../agents/registry.js';
import { publishModelSchema } from '../../serve/inference/models.js';

describe('the agents a server publishes models for', () => {
  it('are the neural ones, as the registry’s rows declare', () => {
    expect(AGENT_NAMES.filter((name) => takesPublishedModels(name))).toEqual(['neural']);
    expect(takesPublishedModels('neural:models/standard-4?greedy=0')).toBe(true);
    expect(takesPublishedModels('level:3')).toBe(false);
    expect(() => takesPublishedModels('neurall')).toThrow(/unknown agent "neurall"/);
  });

  it('yaniv publish-model takes only those, with the error in words', () => {
    const parsed = (agent: string) => publishModelSchema.safeParse({ redis: 'redis://127.0.0.1:6379', agent });
    expect(parsed('neural?greedy=0').success).toBe(true);
    for (const agent of ['strong', 'level:3', 'neurall']) {
      expect(parsed(agent).error?.issues.map((issue) => issue.message)).toEqual(['must be a neural agent as served (e.g. neural)']);
    }
  });
});
