// Tournaments: schedules, statistics against hand-computed figures, legality of every agent
// under every preset, records that replay, and the same result whatever the worker count.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PRESET_NAMES, parseRecord, replay, resolveRules } from '../../env/index.js';
import { AGENT_NAMES, parseAgentSpec } from '../../agents/registry.js';
import { createAgentFor } from '../../agents/resolve.js';
import { readModelCard } from '../../agents/models/modelCard.js';
import { type MatchResult, playMatch } from '../../agents/tournament/match.js';
import { lineups, rotations, schedule } from '../../agents/tournament/schedule.js';
import { eloRatings, summarize, wilson } from '../../agents/tournament/stats.js';

const CLI = new URL('../../dist/cli/main.js', import.meta.url);

describe('schedule', () => {
  it('plays each heads-up deal twice with the seats swapped', () => {
    const games = schedule(['a', 'b'], 2, 5);
    expect(games.length).toBe(6);
    expect(games.map((g) => `${g.deal}:${g.seats.join('')}`)).toEqual(['0:ab', '0:ba', '1:ab', '1:ba', '2:ab', '2:ba']);
  });

  it('seats every agent in every seat equally often', () => {
    for (const [agents, players] of [
      [['a', 'b'], 4],
      [['a', 'b', 'c'], 3],
      [['a', 'b', 'c'], 2],
      [['a', 'b', 'c', 'd', 'e'], 3],
    ] as const) {
      const games = schedule(agents, players, 12);
      for (let seat = 0; seat < players; seat++) {
        const counts = new Map<string, number>();
        for (const g of games) counts.set(g.seats[seat], (counts.get(g.seats[seat]) ?? 0) + 1);
        expect(new Set(counts.values()).size, `${agents.join('')} at ${players}: seat ${seat}`).toBe(1);
      }
    }
  });

  it('repeats agents round a table with more seats than agents, and pairs them off with fewer', () => {
    expect(lineups(['a', 'b'], 4)).toEqual([['a', 'b', 'a', 'b']]);
    expect(rotations(['a', 'b', 'a', 'b'])).toEqual([
      ['a', 'b', 'a', 'b'],
      ['b', 'a', 'b', 'a'],
    ]);
    expect(lineups(['a', 'b', 'c'], 2)).toEqual([
      ['a', 'b'],
      ['a', 'c'],
      ['b', 'c'],
    ]);
  });
});

describe('statistics', () => {
  it('gives the Wilson 95% interval', () => {
    // p = 3/4, n = 4, z = 1.96: centre (0.75 + z²/8) / (1 + z²/4) = 0.6275, half-width 0.3269.
    const { low, high } = wilson(3, 4);
    expect(low).toBeCloseTo(0.3006, 3);
    expect(high).toBeCloseTo(0.9544, 3);
    expect(wilson(0, 10).low).toBe(0);
    expect(wilson(10, 10).high).toBeCloseTo(1, 12);
  });

  it('turns a 3-of-4 record into Bradley–Terry Elo with one virtual draw', () => {
    // With the virtual draw a wins 3.5 of 5: strength ratio 3.5/1.5, 400·log10(7/3) = 147.2 points apart.
    const elo = eloRatings(
      ['a', 'b'],
      [
        [0, 3],
        [1, 0],
      ],
      [
        [0, 4],
        [4, 0],
      ],
    );
    expect(elo.a).toBeCloseTo(1573.6, 1);
    expect(elo.b).toBeCloseTo(1426.4, 1);
  });

  it('summarizes hand-made games', () => {
    const seat = (won: boolean, rank: number, roundPoints: number, extra: Partial<MatchResult['seats'][number]> = {}) => ({
      won,
      rank,
      eliminatedAfter: null,
      finalTotal: 0,
      roundPoints,
      rounds: 2,
      yanivCalls: 0,
      yanivSuccesses: 0,
      assafSuffered: 0,
      assafCaused: 0,
      milestonePoints: 0,
      decisions: 10,
      decisionNanos: 10_000,
      ...extra,
    });
    const game = (seats: MatchResult['seats']): MatchResult => ({
      seats,
      rounds: 2,
      turns: 10,
      winner: seats.findIndex((s) => s.won),
      truncated: false,
    });
    const summary = summarize(
      ['a', 'b'],
      [
        {
          seats: ['a', 'b'],
          result: game([seat(true, 0, 10, { yanivCalls: 2, yanivSuccesses: 1, assafSuffered: 1 }), seat(false, 1, 30, { assafCaused: 1 })]),
        },
        {
          seats: ['b', 'a'],
          result: game([seat(false, 1, 40, { milestonePoints: 25 }), seat(true, 0, 6, { yanivCalls: 1, yanivSuccesses: 1 })]),
        },
        { seats: ['a', 'b'], result: game([seat(false, 1, 20), seat(true, 0, 4)]) },
      ],
    );
    const [a, b] = summary.agents;
    expect(a).toMatchObject({
      games: 3,
      wins: 2,
      yanivCallsPerGame: 1,
      yanivSuccessRate: 2 / 3,
      assafSufferedPerGame: 1 / 3,
      meanRoundsPerGame: 2,
      microsPerDecision: 1,
    });
    expect(a.winRate).toBeCloseTo(2 / 3);
    // Places 1, 1, 2: mean 4/3, sample variance 1/3, half-width 1.96·√(1/9).
    expect(a.meanPlace).toBeCloseTo(4 / 3);
    expect(b.meanPlace).toBeCloseTo(5 / 3);
    expect(a.meanPlace95.low).toBeCloseTo(4 / 3 - 1.959964 / 3, 5);
    expect(a.meanPlace95.high).toBeCloseTo(4 / 3 + 1.959964 / 3, 5);
    expect(a.meanRoundPenalty).toBeCloseTo(36 / 6);
    expect(b.meanRoundPenalty).toBeCloseTo(74 / 6);
    expect(b.assafCausedPerGame).toBeCloseTo(1 / 3);
    expect(b.milestonePointsPerGame).toBeCloseTo(25 / 3);
    expect(a.milestonePointsPerGame).toBe(0);
    expect(summary.headToHead.score[0][1]).toBeCloseTo(2 / 3);
    expect(summary.headToHead.meetings[0][1]).toBe(3);
    expect(a.unfinished).toBe(0);
    expect(summary.truncatedGames).toBe(0);

    // A game stopped by the turn cap is counted, and changes no other figure.
    const stopped = { ...game([seat(false, 0, 99, { yanivCalls: 5 }), seat(false, 1, 0)]), truncated: true };
    const withStopped = summarize(
      ['a', 'b'],
      [
        {
          seats: ['a', 'b'],
          result: game([seat(true, 0, 10, { yanivCalls: 2, yanivSuccesses: 1, assafSuffered: 1 }), seat(false, 1, 30, { assafCaused: 1 })]),
        },
        {
          seats: ['b', 'a'],
          result: game([seat(false, 1, 40, { milestonePoints: 25 }), seat(true, 0, 6, { yanivCalls: 1, yanivSuccesses: 1 })]),
        },
        { seats: ['a', 'b'], result: stopped },
        { seats: ['a', 'b'], result: game([seat(false, 1, 20), seat(true, 0, 4)]) },
      ],
    );
    expect(withStopped.games).toBe(4);
    expect(withStopped.truncatedGames).toBe(1);
    expect(withStopped.agents.map((x) => [x.games, x.unfinished])).toEqual([
      [4, 1],
      [4, 1],
    ]);
    const { games: _g, unfinished: _u, ...figures } = withStopped.agents[0];
    const { games: _g0, unfinished: _u0, ...expected } = a;
    expect(figures).toEqual(expected);
    expect(withStopped.headToHead).toEqual(summary.headToHead);
    expect(withStopped.elo).toEqual(summary.elo);
  });
});

// The neural agent needs a model; its own legality property (random tiny network) is in test/agents/neural*.
const HEURISTICS = AGENT_NAMES.filter((name) => name !== 'neural');

describe('agents in play', () => {
  it.each(PRESET_NAMES)('every agent plays only legal actions under %s at 2, 5 and 8 players', async (preset) => {
    for (const players of [2, 5, 8]) {
      const agents = await Promise.all(
        Array.from({ length: players }, (_, seat) => createAgentFor(HEURISTICS[seat % HEURISTICS.length], { players: 2 })),
      );
      const rules = resolveRules({ preset, players });
      // playMatch throws on any illegal choice.
      const result = playMatch({
        rules,
        preset,
        overrides: {},
        agents,
        dealSeed: players,
        agentSeed: 7,
        episode: players === 8 ? 'round' : 'game',
      });
      expect(result.seats.reduce((n, s) => n + s.decisions, 0)).toBeGreaterThan(players);
      expect(result.winner).toBeGreaterThanOrEqual(0);
      // Ranks: the winner first, then whoever stayed in the game longer, then the lower total.
      expect(result.seats[result.winner].rank).toBe(0);
      for (const a of result.seats) {
        for (const b of result.seats) {
          if (a === b || a.won || b.won) continue;
          const survivalA = a.eliminatedAfter ?? Infinity;
          const survivalB = b.eliminatedAfter ?? Infinity;
          if (survivalA > survivalB) expect(a.rank).toBeLessThan(b.rank);
          if (survivalA === survivalB && players > 2 && result.rounds > 1 && a.finalTotal < b.finalTotal)
            expect(a.rank).toBeLessThan(b.rank);
        }
      }
    }
  });

  it('writes a record that replays to the same totals and winner', async () => {
    const rules = resolveRules({ players: 3 });
    const agents = await Promise.all(['strong', 'intermediate', 'novice'].map((name) => createAgentFor(name, { players: 2 })));
    const result = playMatch({
      rules,
      preset: 'standard',
      overrides: {},
      agents,
      dealSeed: 11,
      agentSeed: 3,
      episode: 'game',
      record: true,
    });
    const { result: replayed } = replay(parseRecord(result.record));
    expect(replayed.ok).toBe(true);
    if (!replayed.ok) return;
    expect(replayed.totals).toEqual(result.seats.map((s) => s.finalTotal));
    expect(replayed.winner).toBe(result.winner);
    expect(replayed.rounds.length).toBe(result.rounds);
  });

  it('counts what the milestones took off each total: final total = round points − milestone points', async () => {
    const rules = resolveRules({ players: 2 });
    const agents = await Promise.all(['strong', 'intermediate'].map((name) => createAgentFor(name, { players: 2 })));
    let milestones = 0;
    for (let dealSeed = 0; dealSeed < 12; dealSeed++) {
      const result = playMatch({ rules, preset: 'standard', overrides: {}, agents, dealSeed, agentSeed: dealSeed, episode: 'game' });
      for (const seat of result.seats) {
        expect(seat.finalTotal).toBe(seat.roundPoints - seat.milestonePoints);
        expect(seat.milestonePoints % 25).toBe(0); // standard milestones: 50 → 25, 100 → 50
        milestones += seat.milestonePoints;
      }
    }
    expect(milestones).toBeGreaterThan(0);
  });
});

describe('the turn cap', () => {
  it('cuts a game short: truncated, the rounds played counted and recorded, the record replaying', async () => {
    const rules = resolveRules({ players: 2 });
    const play = async (maxTurns?: number) => {
      const agents = await Promise.all(['intermediate', 'novice'].map((name) => createAgentFor(name, { players: 2 })));
      return playMatch({
        rules,
        preset: 'standard',
        overrides: {},
        agents,
        dealSeed: 4,
        agentSeed: 1,
        episode: 'game',
        record: true,
        maxTurns,
      });
    };
    const whole = await play();
    const firstRoundEnd = whole.record?.rounds[0].moves.length ?? 0;
    // Mid-round caps, and one exactly at a round's end (the next round is not counted).
    for (const maxTurns of [1, 7, firstRoundEnd, firstRoundEnd + 1]) {
      const result = await play(maxTurns);
      expect(result.truncated).toBe(true);
      expect(result.turns).toBe(maxTurns);
      const { result: replayed } = replay(parseRecord(result.record));
      expect(replayed.ok).toBe(true);
      expect(result.record?.rounds.length).toBe(result.rounds);
      expect(result.record?.rounds.reduce((n, round) => n + round.moves.length, 0)).toBe(maxTurns);
      expect(result.rounds).toBe(maxTurns <= firstRoundEnd ? 1 : 2);
    }
  });

  it('marks a round episode cut short as truncated', async () => {
    const agents = await Promise.all(['intermediate', 'novice'].map((name) => createAgentFor(name, { players: 2 })));
    const result = playMatch({
      rules: resolveRules({ players: 2 }),
      preset: 'standard',
      overrides: {},
      agents,
      dealSeed: 4,
      agentSeed: 1,
      episode: 'round',
      maxTurns: 1,
    });
    expect(result).toMatchObject({ truncated: true, rounds: 1, turns: 1, winner: -1 });
  });
});

describe('yaniv bench', () => {
  const run = (...args: string[]) => {
    if (!existsSync(CLI)) throw new Error('dist/cli/main.js is missing: run `npm run build` first (npm test does)');
    return spawnSync(process.execPath, [CLI.pathname, 'bench', '--no-progress', ...args], { encoding: 'utf8' });
  };
  /** The results (the decision times are under `run`): the same bytes for the same seed. */
  const results = (json: string) => JSON.stringify(JSON.parse(json).results);

  it('--panel judges one agent beside the reference against each held-out panel member on the same deals', () => {
    const args = ['--panel', '--agents', 'intermediate', '--players', '3', '--games', '3', '--seed', '4', '--workers', '1'];
    const json = run(...args, '--json', '-');
    expect(json.status, json.stderr).toBe(0);
    const report = JSON.parse(json.stdout) as {
      config: { reference: string };
      panel: { opponent: string; subject: { agent: string; games: number }; reference: { agent: string; games: number } }[];
    };
    expect(report.config.reference).toBe('strong');
    expect(report.panel.map((row) => row.opponent)).toEqual(['hoarder', 'montecarlo']);
    for (const row of report.panel) {
      expect(row.subject).toMatchObject({ agent: 'intermediate', games: 3 });
      expect(row.reference).toMatchObject({ agent: 'strong', games: 3 });
    }
    const text = run(...args);
    expect(text.stdout).toMatch(/difference, paired/);
    const two = run('--panel', '--agents', 'intermediate,strong');
    expect(two.status).toBe(2);
    expect(two.stderr).toMatch(/--panel judges one agent/);
  });

  it("--panel --card keeps the results in the judged model's card, and refuses an agent that plays no model folder", () => {
    const dir = mkdtempSync(join(tmpdir(), 'yaniv-panel-card-'));
    try {
      cpSync(new URL('../../models/standard', import.meta.url), dir, { recursive: true });
      const spec = `neural:${dir}`;
      const ok = run('--panel', '--card', '--agents', spec, '--players', '2', '--games', '2', '--seed', '4', '--workers', '1');
      expect(ok.status, ok.stderr).toBe(0);
      const card = readModelCard(dir);
      expect(card.panel.map((r) => [r.players, r.opponent, r.model.agent, r.reference.agent, r.model.games])).toEqual([
        [2, 'hoarder', spec, 'strong', 2],
        [2, 'montecarlo', spec, 'strong', 2],
      ]);
      expect(card.panel[0].command).toMatch(/^yaniv bench --panel --agents '[^']+' --reference 'strong' --players 2 --games 2 --seed 4/);
      const loads = run('--agents', `${spec},strong`, '--games', '2', '--seed', '4', '--workers', '1');
      expect(loads.status, loads.stderr).toBe(0);
      const noModel = run('--panel', '--card', '--agents', 'intermediate', '--games', '2');
      expect(noModel.status).toBe(2);
      expect(noModel.stderr).toMatch(/--card keeps results in a model's card: intermediate plays no model folder/);
      const noPanel = run('--card', '--agents', spec, '--games', '2');
      expect(noPanel.status).toBe(2);
      expect(noPanel.stderr).toMatch(/use it with --panel/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives the same result with 1 and 2 workers', () => {
    const args = ['--agents', 'strong,intermediate,random', '--games', '6', '--seed', '5', '--json', '-'];
    const one = run(...args, '--workers', '1');
    const two = run(...args, '--workers', '2');
    expect(one.status, one.stderr).toBe(0);
    expect(two.status, two.stderr).toBe(0);
    expect(results(two.stdout)).toBe(results(one.stdout));
    expect(JSON.parse(one.stdout).run).toMatchObject({ workers: 1, microsPerDecision: { strong: expect.any(Number) } });
  });

  it('reports games stopped by the turn cap in the table and the JSON, and leaves them out of the rates', () => {
    // With a cap of 250 turns, some of these 6 games (about 20 rounds each) stop unfinished (3 today).
    const args = ['--agents', 'strong,intermediate', '--games', '6', '--seed', '1', '--workers', '1', '--max-turns', '250'];
    const json = run(...args, '--json', '-');
    expect(json.status, json.stderr).toBe(0);
    const { config, results: report } = JSON.parse(json.stdout) as {
      config: { maxTurns: number };
      results: {
        games: number;
        truncatedGames: number;
        agents: { agent: string; games: number; unfinished: number; wins: number; winRate: number }[];
      };
    };
    expect(config.maxTurns).toBe(250);
    expect(report.games).toBe(6);
    const stopped = report.truncatedGames;
    expect(stopped).toBeGreaterThan(0);
    expect(stopped).toBeLessThan(6);
    for (const agent of report.agents) expect([agent.games, agent.unfinished]).toEqual([6, stopped]);
    // Heads-up, each finished game has one winner; the rates are over the finished games.
    expect(report.agents.reduce((n, agent) => n + agent.wins, 0)).toBe(6 - stopped);
    expect(report.agents[0].winRate).toBeCloseTo(report.agents[0].wins / (6 - stopped));
    const table = run(...args);
    expect(table.status, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/│ agent +│ games │ unfinished │ win rate/);
    expect(table.stdout).toMatch(new RegExp(`│ strong +│ 6 +│ ${stopped} +│`));
    expect(table.stdout).toContain(`${stopped} of 6 games hit the turn cap unfinished`);
  });

  it('saves every game as a record that replays', () => {
    const dir = mkdtempSync(join(tmpdir(), 'yaniv-bench-'));
    try {
      const out = run('--agents', 'intermediate,novice', '--games', '4', '--players', '3', '--save-records', dir, '--json', '-');
      expect(out.status, out.stderr).toBe(0);
      const files = readdirSync(dir);
      expect(files.length).toBe(JSON.parse(out.stdout).results.games);
      for (const file of files) expect(replay(parseRecord(readFileSync(join(dir, file), 'utf8'))).result.ok).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [['--agents', 'strong,nobody'], 'unknown agent "nobody"'],
    [['--players', '1'], '--players: must be an integer from 2 to 8 (got "1")'],
    [['--players', '9'], '--players: must be an integer from 2 to 8 (got "9")'],
    [['--games', '0'], '--games: must be an integer ≥ 1 (got "0")'],
    [['--episode', 'match'], '--episode: must be one of "round", "game" (got "match")'],
    [['--agents', 'strong,strong'], '--agents: name each agent once'],
    [['--rules', 'klondike'], 'unknown preset "klondike"'],
  ])('refuses %j with a clear error', (args, message) => {
    const out = run(...args);
    expect(out.status).toBe(2);
    expect(out.stderr).toContain(message);
  });
});

describe('agent registry', () => {
  it('reads specs with parameters and names what is wrong', async () => {
    expect(parseAgentSpec('rollout?samples=8&ms=5')).toEqual({ name: 'rollout', params: { samples: '8', ms: '5' } });
    expect((await createAgentFor('rollout?samples=4', { players: 2 })).name).toBe('rollout');
    expect(() => parseAgentSpec('strongest')).toThrow(
      /unknown agent "strongest"; the agents are random, novice, intermediate, strong, rollout/,
    );
    expect(() => parseAgentSpec('strong?depth=2')).toThrow(
      /agent "strong" has no parameter "depth"; its parameters are equity, term, call, look/,
    );
    expect(() => parseAgentSpec('strong:path')).toThrow(/takes no ":" argument/);
    await expect(createAgentFor('rollout?samples=-1', { players: 2 })).rejects.toThrow(/samples must be a positive number/);
  });

  it("tunes strong's call risk and lookahead by parameters, named in the agent", async () => {
    expect((await createAgentFor('strong?call=0.2&look=0.6', { players: 2 })).name).toBe('strong?call=0.2&look=0.6');
    expect((await createAgentFor('strong', { players: 2 })).name).toBe('strong');
    await expect(createAgentFor('strong?call=2', { players: 2 })).rejects.toThrow(/call must be a risk from 0 to 1 \(got 2\)/);
    await expect(createAgentFor('strong?look=x', { players: 2 })).rejects.toThrow(/look must be a positive number \(got "x"\)/);
  });
});
