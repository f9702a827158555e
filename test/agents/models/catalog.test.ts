import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CatalogEntry, modelFor, shippedModels } from '../../../agents/models/catalog.js';
import type { ModelCard } from '../../../agents/models/modelCard.js';
import { DEFAULT_MODEL, packageRoot } from '../../../agents/models/modelFolder.js';
import { resolveAgent } from '../../../agents/resolve.js';
import { readModelCard } from '../../../agents/models/modelCard.js';
import { PRESET_NAMES } from '../../../env/index.js';

const base = readModelCard(path.join(packageRoot(), DEFAULT_MODEL));
/** A catalog entry trained under `preset` (+ overrides) at these sizes. */
const entry = (folder: string, preset: string, players: number[], rules: Record<string, unknown> = {}): CatalogEntry => ({
  folder,
  card: { ...base, rules: { preset, rules }, players } satisfies ModelCard,
});
const catalog = [
  entry(DEFAULT_MODEL, 'standard', [2]),
  entry('models/standard-34', 'standard', [3, 4]),
  entry('models/standard-slap', 'standard', [2], { slapdown: true }),
  entry('models/dutch', 'dutch', [2]),
];
const plain = { preset: 'standard', rules: {} };

describe('the model catalog', () => {
  it('picks the model trained for the rules and the table size', () => {
    expect(modelFor(plain, 2, catalog)).toMatchObject({ folder: DEFAULT_MODEL, fit: 'trained', mismatch: null });
    expect(modelFor(plain, 3, catalog)).toMatchObject({ folder: 'models/standard-34', fit: 'trained', mismatch: null });
    expect(modelFor(plain, 4, catalog)).toMatchObject({ folder: 'models/standard-34', fit: 'trained', mismatch: null });
    expect(modelFor({ preset: 'dutch', rules: {} }, 2, catalog)).toMatchObject({ folder: 'models/dutch', fit: 'trained', mismatch: null });
  });

  it('a model trained with overrides plays tables with those overrides; other overrides play the plain one, with mismatch', () => {
    const slap = { preset: 'standard', rules: { slapdown: true } };
    expect(modelFor(slap, 2, catalog)).toMatchObject({ folder: 'models/standard-slap', mismatch: null });
    expect(modelFor({ preset: 'standard', rules: { slapdown: false } }, 2, catalog)).toMatchObject({ folder: DEFAULT_MODEL });
    expect(modelFor({ preset: 'standard', rules: { slapdown: false } }, 2, catalog).mismatch).toMatch(/rules standard \+/);
    // At 3 seats no slapdown model is trained: the preset's 3-seat model, saying the rules differ.
    expect(modelFor(slap, 3, catalog)).toMatchObject({ folder: 'models/standard-34', fit: 'trained' });
    expect(modelFor(slap, 3, catalog).mismatch).toMatch(/trained on standard\)/);
  });

  it('beyond its trained sizes a preset plays its nearest trained size, and says so', () => {
    const five = modelFor(plain, 5, catalog);
    expect(five).toMatchObject({ folder: 'models/standard-34', fit: 'nearest-size' });
    expect(five.mismatch).toMatch(/5 players \(trained on 3, 4; its adviser strong leads while more than 4 seats are in play\)/);
    expect(modelFor({ preset: 'dutch', rules: {} }, 4, catalog)).toMatchObject({ folder: 'models/dutch', fit: 'nearest-size' });
  });

  it('between two trained sizes at the same distance, the larger plays (its games had every smaller number of seats in play)', () => {
    const twoAndFour = [entry(DEFAULT_MODEL, 'standard', [2]), entry('models/standard-4', 'standard', [4])];
    expect(modelFor(plain, 3, twoAndFour)).toMatchObject({ folder: 'models/standard-4', fit: 'nearest-size' });
    expect(modelFor(plain, 3, [...twoAndFour].reverse())).toMatchObject({ folder: 'models/standard-4' });
    expect(modelFor(plain, 5, twoAndFour)).toMatchObject({ folder: 'models/standard-4' });
    expect(modelFor(plain, 2, twoAndFour)).toMatchObject({ folder: DEFAULT_MODEL, fit: 'trained' });
  });

  it('a preset with no model of its own plays the default model, with mismatch', () => {
    const nepal = modelFor({ preset: 'nepal', rules: {} }, 2, catalog);
    expect(nepal).toMatchObject({ folder: DEFAULT_MODEL, fit: 'default' });
    expect(nepal.mismatch).toMatch(/rules nepal \(trained on standard\)/);
  });

  it('every shipped model has a card naming its rules and sizes, and every table resolves to one of them', () => {
    const shipped = shippedModels();
    expect(shipped.map((m) => m.folder)).toContain(DEFAULT_MODEL);
    for (const { card } of shipped) {
      expect(PRESET_NAMES).toContain(card.rules.preset);
      expect(card.players.length).toBeGreaterThan(0);
    }
    for (const preset of PRESET_NAMES)
      for (let players = 2; players <= 8; players++) {
        const resolved = resolveAgent('neural', { preset, players });
        expect(resolved.model?.kind).toBe('shipped');
        expect(shipped.map((m) => m.folder)).toContain(resolved.model?.folder);
        expect(resolved.card).toEqual(shipped.find((m) => m.folder === resolved.model?.folder)?.card);
      }
  });
});

describe('resolveAgent', () => {
  it('plain neural names its model where it is not the default; explicit models and other agents are themselves', () => {
    const table = { preset: 'standard', players: 2 };
    expect(resolveAgent('neural', table)).toMatchObject({ spec: 'neural', model: { kind: 'shipped', folder: DEFAULT_MODEL }, fit: 'trained' });
    expect(resolveAgent('neural', { ...table, players: 4 })).toMatchObject({
      spec: 'neural:models/standard-4',
      model: { kind: 'shipped', folder: 'models/standard-4' },
      fit: 'trained',
    });
    expect(resolveAgent('neural:models/standard?greedy=0', { ...table, players: 4 })).toMatchObject({
      spec: 'neural:models/standard?greedy=0',
      fit: null,
    });
    expect(resolveAgent('neural:models/standard', { ...table, players: 4 }).mismatch).toMatch(/4 players/);
    expect(resolveAgent('strong', table)).toEqual({
      requested: 'strong',
      kind: 'strong',
      params: {},
      spec: 'strong',
      table,
      model: null,
      card: null,
      fit: null,
      mismatch: null,
      via: null,
    });
    for (const preset of PRESET_NAMES) {
      const own = modelFor({ preset, rules: {} }, 2);
      const expected = own.folder === DEFAULT_MODEL ? 'neural?greedy=0' : `neural:${own.folder}?greedy=0`;
      expect(resolveAgent('neural?greedy=0', { preset, players: 2 }).spec).toBe(expected);
    }
  });
});
