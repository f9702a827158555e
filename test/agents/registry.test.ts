// The registry's rows say what an agent kind does, so no caller branches on its name: here which
// kinds a server may publish new model versions for (serve/inference/models.ts, yaniv publish-model).
import { describe, expect, it } from 'vitest';
import { AGENT_NAMES, takesPublishedModels } from '../../agents/registry.js';
import { resolveAgent } from '../../agents/resolve.js';
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

describe('what a neural seat is told about its table', () => {
  it('own=N moves the line above which the adviser leads, for a named folder and the catalog’s pick alike', () => {
    for (const spec of ['neural:models/standard-4', 'neural']) {
      expect(resolveAgent(spec, { players: 5 }).mismatch).toMatch(/leads while more than 4 seats are in play/);
      expect(resolveAgent(`${spec}?own=5`, { players: 5 }).mismatch).toMatch(/^plays 5 players \(trained on [\d, ]+\): expect/);
      expect(resolveAgent(`${spec}?own=5`, { players: 6 }).mismatch).toMatch(/leads while more than 5 seats are in play/);
    }
  });
});
