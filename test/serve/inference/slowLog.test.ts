// The "slow advice" warning is rate-limited and summarised (issue 15: ~39,000 lines in 50 minutes
// under load): the first of a spell at once, then one summary line a window.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { SlowLog } from '../../../serve/inference/slowLog.js';

function logger(): { lines: Record<string, unknown>[]; log: pino.Logger } {
  const lines: Record<string, unknown>[] = [];
  return { lines, log: pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) }) };
}

describe('the slow-advice log', () => {
  it('writes the first slow request of a spell, then one summary per window however many follow', () => {
    const { lines, log } = logger();
    const slow = new SlowLog(log, 40_000);
    for (let i = 0; i < 1000; i++) slow.record(i % 2 ? 'strong' : 'neural', 100 + i);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ event: 'slow_request', agent: 'neural', ms: 100 });
    slow.flush(); // the end of the window (its timer, called here so that no timing matters)
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ event: 'slow_requests', count: 999, slowestMs: 1099, agents: { strong: 500, neural: 499 } });
    expect(lines[1].msg).toBe('999 more slow advice requests in 40 s (slowest 1099 ms)');
    // The spell goes on: still summarised, not one line each.
    slow.record('strong', 300);
    slow.record('strong', 200);
    slow.close();
    expect(lines).toHaveLength(3);
    expect(lines[2]).toMatchObject({ count: 2, slowestMs: 300 });
  });

  it('after a quiet window, the next slow request is written at once again', () => {
    const { lines, log } = logger();
    const slow = new SlowLog(log, 40_000);
    slow.record('strong', 150);
    slow.flush(); // a window with nothing more: it closes
    slow.record('strong', 160);
    expect(lines.map((l) => l.event)).toEqual(['slow_request', 'slow_request']);
    slow.close();
  });
});
