// `yaniv bench` through its real entry point: an agent's bad parameter, found in a worker thread,
// is the one-line error the user can fix, as on the main thread (agents/tournament/dispatch.ts).
import { describe, expect, it } from 'vitest';
import { yaniv } from './processes.js';

describe('yaniv bench', () => {
  it.each(['1', '2'])('names a bad agent parameter in one line, with %s worker(s)', (workers) => {
    const run = yaniv('bench', '--agents', 'strong?end=bad,novice', '--games', '2', '--workers', workers, '--no-progress');
    expect(run.code).toBe(2);
    expect(run.stderr).toBe('yaniv: agent "strong": parameter end must be rough or measured (got "bad")\n');
  });
});
