import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type ModelCard, type PanelResult, parseModelCard, readModelCard, recordPanelResults, trainingMismatch } from '../../../agents/models/modelCard.js';
import { DEFAULT_MODEL, packageRoot } from '../../../agents/models/modelFolder.js';
import { MODEL_CONTRACT } from '../../../env/gym/modelContract.js';

const shippedMetadata = (): Record<string, unknown> =>
  JSON.parse(readFileSync(path.join(packageRoot(), DEFAULT_MODEL, 'metadata.json'), 'utf8')) as Record<string, unknown>;

/** The shipped model's metadata with its training record changed by `edit`. */
function withTraining(edit: (training: Record<string, unknown>) => void): Record<string, unknown> {
  const meta = shippedMetadata();
  edit(meta.training as Record<string, unknown>);
  return meta;
}

describe('the model card', () => {
  it("reads the shipped model's card: the contract, its rules and sizes, its adviser, reward and benchmark", () => {
    const card = readModelCard(path.join(packageRoot(), DEFAULT_MODEL));
    expect(card.observationVersion).toBe(MODEL_CONTRACT.observationVersion);
    expect(card.actionSpaceVersion).toBe(MODEL_CONTRACT.actionSpaceVersion);
    expect(card.actionFeaturesVersion).toBe(MODEL_CONTRACT.actionFeaturesVersion);
    expect(card.rules).toEqual({ preset: 'standard', rules: {} });
    expect(card.players).toEqual([2]);
    expect(card.adviser).toBe('strong');
    expect(card.reward).toBe('equity');
    expect(card.benchmark?.results['strong-2p'].games).toBe(10000);
    expect(card.panel.map((r) => [r.players, r.opponent, r.reference.agent])).toEqual([
      [2, 'hoarder', 'strong'],
      [2, 'montecarlo', 'strong'],
    ]);
  });

  it('refuses a malformed or foreign card, naming the field', () => {
    const bad: [unknown, RegExp][] = [
      [{ ...shippedMetadata(), formatVersion: 2 }, /formatVersion: must be 1/],
      [{ name: 'some other model' }, /formatVersion/],
      [withTraining((t) => delete t.rules), /training\.rules/],
      [withTraining((t) => (t.players = [2, 9])), /training\.players\.1/],
      [withTraining((t) => (t.players = [])), /training\.players/],
      [withTraining((t) => (t.rules = { preset: 'standard', overrides: { slapdown: true } })), /training\.rules/],
      [withTraining((t) => (t.returnHorizon = 'forever')), /training\.returnHorizon/],
      [{ ...shippedMetadata(), network: { hiddenUnits: 'wide' } }, /network\.hiddenUnits/],
    ];
    for (const [raw, message] of bad) expect(() => parseModelCard(raw, 'metadata.json in x')).toThrow(message);
    expect(() => parseModelCard(shippedMetadata(), 'x')).not.toThrow();
  });
});

describe('trainingMismatch', () => {
  const card: Pick<ModelCard, 'rules' | 'players'> = { rules: { preset: 'standard', rules: {} }, players: [2] };
  const slapdown: Pick<ModelCard, 'rules' | 'players'> = { rules: { preset: 'standard', rules: { slapdown: true } }, players: [2] };

  it('says nothing for the rules and table sizes a model was trained on', () => {
    expect(trainingMismatch(card, { preset: 'standard', rules: {} }, 2)).toBeNull();
    expect(trainingMismatch({ ...card, players: [2, 4] }, { preset: 'standard', rules: {} }, 4)).toBeNull();
  });

  it('names other rules, overrides and table sizes', () => {
    expect(trainingMismatch(card, { preset: 'dutch', rules: {} }, 2)).toMatch(/rules dutch \(trained on standard\)/);
    expect(trainingMismatch(card, { preset: 'standard', rules: { slapdown: true } }, 2)).toMatch(/standard \+ \{"slapdown":true\}/);
    expect(trainingMismatch(card, { preset: 'standard', rules: {} }, 4)).toMatch(
      /plays 4 players \(trained on 2\): expect it below its measured strength/,
    );
    expect(trainingMismatch({ ...card, players: [2, 4] }, { preset: 'standard', rules: {} }, 3)).toMatch(/3 players \(trained on 2, 4\)/);
  });

  it("says where a model's adviser leads: with more seats in play than the largest size it trained at", () => {
    const advised = { ...card, adviser: 'strong' };
    expect(trainingMismatch(advised, { preset: 'standard', rules: {} }, 4)).toMatch(
      /plays 4 players \(trained on 2; its adviser strong leads while more than 2 seats are in play\)/,
    );
    expect(trainingMismatch({ ...advised, players: [2, 4] }, { preset: 'standard', rules: {} }, 3)).not.toMatch(/leads/);
    expect(trainingMismatch({ ...advised, players: [2, 4] }, { preset: 'standard', rules: {} }, 6)).toMatch(/more than 4 seats/);
    // own=N moves the line: own=5 at five seats plays the network's own pick, own=5 at six leads above five
    expect(trainingMismatch({ ...advised, players: [4] }, { preset: 'standard', rules: {} }, 5, 5)).toMatch(/5 players \(trained on 4\):/);
    expect(trainingMismatch({ ...advised, players: [4] }, { preset: 'standard', rules: {} }, 6, 5)).toMatch(/more than 5 seats/);
  });

  it('a model trained with overrides fits its own rules and not the plain preset', () => {
    expect(trainingMismatch(slapdown, { preset: 'standard', rules: { slapdown: true } }, 2)).toBeNull();
    expect(trainingMismatch(slapdown, { preset: 'standard', rules: {} }, 2)).toMatch(
      /rules standard \(trained on standard \+ \{"slapdown":true\}\)/,
    );
    // The same overrides in another key order are the same rules.
    const two = { ...slapdown, rules: { preset: 'standard', rules: { slapdown: true, quickDiscard: false } } };
    expect(trainingMismatch(two, { preset: 'standard', rules: { quickDiscard: false, slapdown: true } }, 2)).toBeNull();
  });
});

describe("the card's held-out panel results", () => {
  /** The shipped model's card without its panel results. */
  const withoutPanel = (): Record<string, unknown> => ({ ...shippedMetadata(), panel: undefined });
  /** A model folder holding a copy of that card (the weights are not read). */
  function folderWithCard(): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'yaniv-card-'));
    writeFileSync(path.join(dir, 'metadata.json'), JSON.stringify(withoutPanel(), null, 2) + '\n');
    return dir;
  }
  const result = (opponent: string, players: number, mean: number): PanelResult => ({
    players,
    rules: { preset: 'standard', rules: {} },
    opponent,
    seed: 1,
    model: { agent: 'neural', games: 100, wins: 60, winRate: 0.6, low: 0.5, high: 0.7, meanPlace: 1.4 },
    reference: { agent: 'strong', games: 100, wins: 55, winRate: 0.55, low: 0.45, high: 0.65, meanPlace: 1.45 },
    difference: { mean, low: mean - 0.05, high: mean + 0.05 },
    command: 'yaniv bench --panel',
    measured: '2026-12-06',
  });

  it('keeps results, replacing those of the same size, rules, member and reference, and leaves the rest of the card as it was', () => {
    const dir = folderWithCard();
    try {
      expect(readModelCard(dir).panel).toEqual([]);
      recordPanelResults(dir, [result('hoarder', 2, 0.05), result('montecarlo', 2, 0.01)]);
      recordPanelResults(dir, [result('hoarder', 4, 0.02), result('hoarder', 2, 0.03)]);
      const card = readModelCard(dir);
      expect(card.panel.map((r) => [r.players, r.opponent, r.difference.mean])).toEqual([
        [2, 'hoarder', 0.03],
        [2, 'montecarlo', 0.01],
        [4, 'hoarder', 0.02],
      ]);
      const written = JSON.parse(readFileSync(path.join(dir, 'metadata.json'), 'utf8')) as Record<string, unknown>;
      expect({ ...written, panel: undefined }).toEqual(withoutPanel());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a malformed result naming the field, and leaves the card unchanged', () => {
    const dir = folderWithCard();
    try {
      const before = readFileSync(path.join(dir, 'metadata.json'), 'utf8');
      expect(() => recordPanelResults(dir, [{ ...result('hoarder', 9, 0), players: 9 }])).toThrow(/players/);
      expect(() => recordPanelResults(dir, [{ ...result('hoarder', 2, 0), difference: { mean: 3, low: 0, high: 1 } }])).toThrow(
        /difference\.mean/,
      );
      expect(readFileSync(path.join(dir, 'metadata.json'), 'utf8')).toBe(before);
      expect(() => parseModelCard({ ...shippedMetadata(), panel: [{ opponent: 'hoarder' }] }, 'card')).toThrow(/panel\.0\.players/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
