// Advisor mode: the answer for a position — sent as a yaniv-view/1 or as a yaniv-position/1 and
// a seat — equals calling the agent directly on that seat's view (same seed), ranks legal
// actions only, and gives the Assaf risk exactly when Yaniv may be called. Positions come from
// the conformance records (test/conformance/, when present) and from games played by YanivEnv.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTION_COUNT,
  MaskScratch,
  PHASE_TURN,
  type PlayerView,
  YANIV_ACTION,
  YanivEnv,
  encodeView,
  importPosition,
  legalActionIds,
  playerView,
  randomLegalAction,
  seededRng,
  assafRisk,
  writeActionMask,
} from '../../env/index.js';
import { shippedEquityFor } from '../../agents/equity/equity.js';
import { createAgentFor } from '../../agents/resolve.js';
import { seatEquities } from '../../env/gym/equity.js';
import { STRONG_DEFAULTS } from '../../agents/bots/strong.js';
import { OUTLOOK_DEFAULTS } from '../../agents/equity/moveOutlook.js';
import { tableHead } from '../../agents/equity/headOutlook.js';
import type { Msg, RunningServer } from '../../serve/index.js';
import { viewToJson } from '../../serve/protocol/viewJson.js';
import { NO_OUTLOOK } from '../../serve/inference/decide.js';
import { LONG, TestClient, startTestServer, turnView } from './helpers.js';

const AGENTS = ['strong', 'rollout?samples=4', 'novice', 'random'];
let server: RunningServer;
let client: TestClient;

beforeAll(async () => {
  server = await startTestServer({ agents: AGENTS });
  client = await TestClient.greeted(server.url, 'msgpack');
});
afterAll(async () => {
  await client.close();
  await server.close();
});

/** What the agent says when called directly on the seat's view, as the server is asked to. */
async function direct(agent: string, view: PlayerView, seed: number) {
  const instance = await createAgentFor(agent, { players: 2 });
  const mask = trueMask.get(view) as Uint8Array;
  instance.reset(seed);
  return { decision: instance.act({ observation: encodeView(view), mask, view, explain: true }), mask };
}

/** The true legal-action mask of each view under test (from the real state). */
const trueMask = new Map<PlayerView, Uint8Array>();

function registerView(s: Parameters<typeof playerView>[0]): PlayerView {
  const view = playerView(s, s.current);
  const mask = new Uint8Array(ACTION_COUNT);
  writeActionMask(s, new MaskScratch(), mask, 0);
  trueMask.set(view, mask);
  return view;
}

async function checkAdvice(advice: Msg<'advice'>, agent: string, view: PlayerView, seed: number): Promise<void> {
  const { decision, mask } = await direct(agent, view, seed);
  expect(advice.type).toBe('advice');
  expect(advice.agentPick.action).toBe(decision.action);
  expect(advice.legal.map((l) => l.action)).toEqual(legalActionIds(mask));
  if (decision.policy) {
    expect(advice.actions.map((a) => a.action)).toEqual(decision.policy.actions);
    // The wire has no −0 (JSON and MessagePack write 0), hence the + 0.
    expect(advice.actions.map((a) => a.score)).toEqual(decision.policy.scores.map((x) => x + 0));
    expect(advice.value).toBe(decision.policy.value === undefined ? null : decision.policy.value + 0);
  } else {
    expect(advice.actions.map((a) => a.action)).toEqual([decision.action]);
    expect(advice.scores).toBe('none');
  }
  if (mask[YANIV_ACTION]) {
    expect(advice.assaf).toEqual(assafRisk(view));
    // strong calls exactly when the risk shown is at most its 10%: the shown risk is the one it decided on.
    if (agent === 'strong') expect(advice.agentPick.kind === 'yaniv').toBe((advice.assaf?.risk ?? 1) <= STRONG_DEFAULTS.callRisk);
  } else expect(advice.assaf).toBeNull();
  // The chance to win: the suggestion played out, first of the moves (test/serve/inference/adviceOutlook.test.ts and
  // adviceJudge.test.ts check the figures and the judgement); the round-start equity beside it is the shipped one where it fits.
  expect(advice.moves?.[0].action).toBe(advice.pick.action);
  expect(advice.moves?.map((m) => m.action)).toContain(advice.agentPick.action);
  const equity = shippedEquityFor(view.rules, view.players);
  if (equity && advice.win) expect(advice.win.roundStart).toBe(seatEquities(equity, view.totals, view.active, view.starter)[view.seat]);
  expect(advice.win === null).toBe(advice.winReason !== null);
}

/** Positions of games YanivEnv plays at random: every few steps, as a position document and the view. */
function envPositions(preset: string, rules: Record<string, unknown>, seed: number, every: number) {
  const env = new YanivEnv({ players: 3, preset, rules, episode: 'round' });
  let { info } = env.reset({ seed });
  const rng = seededRng(seed);
  const positions: { position: unknown; view: PlayerView }[] = [];
  for (let step = 0; !env.done && step < 400; step++) {
    if (step % every === 0) positions.push({ position: env.exportPosition(), view: registerView(env.state) });
    ({ info } = env.step(randomLegalAction(info.actionMask, rng)));
  }
  return positions;
}

describe('advice on positions from played games equals the agent called directly', () => {
  const cases = [
    ['standard', {}],
    ['standard', { quickDiscard: true, slapdown: true }],
    ['pagat', {}],
    ['dutch', { decks: 2 }],
  ] as const;
  it.each(cases)('%s %j, as yaniv-view/1 and as yaniv-position/1', async (preset, rules) => {
    const positions = envPositions(preset, rules, preset.length, LONG ? 1 : 7);
    expect(positions.length).toBeGreaterThan(3);
    let i = 0;
    for (const { position, view } of positions) {
      const agent = AGENTS[i % AGENTS.length];
      const seed = i++;
      const byView = await client.request<Msg<'advice'>>({ type: 'advise', agent, seed, view: viewToJson(view, preset, rules) });
      await checkAdvice(byView, agent, view, seed);
      const byPosition = await client.request<Msg<'advice'>>({ type: 'advise', agent, seed, position, seat: view.seat });
      expect(byPosition).toEqual({ ...byView, id: byPosition.id });
    }
  });

  it('answers many requests sent at once, each to its own id (batched)', async () => {
    const positions = envPositions('standard', {}, 99, 1).slice(0, 40);
    const answers = await Promise.all(
      positions.map(({ view }, seed) => client.request<Msg<'advice'>>({ type: 'advise', seed, view: viewToJson(view, 'standard', {}) })),
    );
    for (const [i, answer] of answers.entries()) await checkAdvice(answer, 'strong', positions[i].view, i);
  });

  it('leaves the moves played out out when the request says outlook: false, the rest the same', async () => {
    const positions = envPositions('standard', {}, 5, 9).slice(0, 6);
    for (const { view } of positions) {
      const request = { type: 'advise', agent: 'strong', seed: 3, view: viewToJson(view, 'standard', {}) };
      const full = await client.request<Msg<'advice'>>(request);
      const plain = await client.request<Msg<'advice'>>({ ...request, outlook: false });
      // MessagePack would keep a key with nil: the keys are absent.
      expect('moves' in plain || 'worlds' in plain).toBe(false);
      const { moves, worlds, ...rest } = full;
      expect(moves?.length).toBeGreaterThan(0);
      // 0 where the table's model judges the moves itself (its q head), else the whole budget played out.
      expect(worlds).toBe((await tableHead(view)) ? 0 : OUTLOOK_DEFAULTS.worlds);
      // Without moves played out there is nothing to overrule the agent: the suggestion is its pick.
      expect(plain).toEqual({ ...rest, id: plain.id, pick: rest.agentPick, win: null, winReason: NO_OUTLOOK });
    }
    const view = viewToJson(positions[0].view, 'standard', {});
    const refused = await client.request<Msg<'error'>>({ type: 'advise', view, outlook: 'no' });
    expect(refused).toMatchObject({ type: 'error', code: 'bad_message', field: 'outlook' });
  });
});

const CONFORMANCE = new URL('../conformance/', import.meta.url);

describe.runIf(existsSync(CONFORMANCE))('advice on positions from the conformance records', () => {
  it('equals the agent called directly at every whole-turn position of every record', async () => {
    let checked = 0;
    for (const file of readdirSync(CONFORMANCE).filter((f) => f.endsWith('.json'))) {
      const { record } = JSON.parse(readFileSync(new URL(file, CONFORMANCE), 'utf8')) as { record: { rounds: { moves: unknown[] }[] } };
      const last = record.rounds.length - 1;
      for (let k = 0; k < record.rounds[last].moves.length; k++) {
        const rounds = record.rounds.map((r, i) => (i === last ? { ...r, moves: r.moves.slice(0, k) } : r));
        const position = { format: 'yaniv-position/1', record: { ...record, rounds }, pending: null };
        let state;
        try {
          state = importPosition(position).state;
        } catch {
          continue; // a record whose moves go wrong (an illegal-move case) stops being a position there
        }
        if (state.phase !== PHASE_TURN) continue;
        const view = registerView(state);
        const advice = await client.request<Msg<'advice'>>({ type: 'advise', position, seat: state.current, seed: k });
        await checkAdvice(advice, 'strong', view, k);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
  });
});

describe('the Assaf risk', () => {
  it('is high against a known low hand and 0 without Assaf', async () => {
    const base = turnView({ handSizes: [3, 1], known: [[], ['AH']], deckSize: 49 });
    const risky = await client.request<Msg<'advice'>>({ type: 'advise', view: base });
    expect(risky.assaf).toEqual({ risk: 1, exact: true });
    const family = await client.request<Msg<'advice'>>({ type: 'advise', view: { ...base, preset: 'family' } });
    expect(family.assaf?.risk).toBe(0);
    const safe = await client.request<Msg<'advice'>>({
      type: 'advise',
      view: { ...base, handSizes: [3, 5], known: [[], []], deckSize: 45 },
    });
    expect(safe.assaf?.risk).toBeLessThan(0.2);
    expect(safe.agentPick.kind).toBe('yaniv');
  });
});

describe('welcome.agents', () => {
  it('says for each agent what its advice then shows: whether it explains, and the kind of its scores (issue 15)', async () => {
    const welcome = await client.request<Msg<'welcome'>>({ type: 'hello', version: 1 });
    expect(welcome.agents.map((a) => a.name)).toEqual(AGENTS);
    // A turn step with several discards, so that an agent that explains ranks more than its pick.
    const view = turnView({
      hand: ['AS', '2S', '9H', 'KD'],
      handSizes: [4, 5],
      previous: { type: 'single', cards: ['QC'], pickable: ['QC'] },
      deckSize: 44,
    });
    for (const agent of welcome.agents) {
      const advice = await client.request<Msg<'advice'>>({ type: 'advise', agent: agent.name, view });
      expect(advice.type, agent.name).toBe('advice');
      expect(advice.scores, agent.name).toBe(agent.scores);
      expect(advice.actions.length > 1, agent.name).toBe(agent.explains);
    }
    expect(welcome.agents.filter((a) => !a.explains).map((a) => a.scores)).toEqual(['none', 'none']);
  });
});
