// The house-rules form (web/ruleOptions.ts) from the real rule-option schema of welcome.
import { describe, expect, it } from 'vitest';
import { PRESETS, ruleOptionsJsonSchema } from '../../env/index.js';
import { ruleFields, valueLabel } from '../../web/ruleOptions.js';

const schema = ruleOptionsJsonSchema();

describe('web/ruleOptions', () => {
  it('offers every rule option a form control can hold, with the preset value as default', () => {
    const fields = ruleFields(schema, { ...PRESETS.dutch.options });
    const byName = Object.fromEntries(fields.map((f) => [f.name, f]));
    expect(byName.slapdown).toMatchObject({ control: 'checkbox', preset: false });
    expect(byName.quickDiscard).toMatchObject({ control: 'checkbox', preset: false });
    expect(byName.yanivThreshold).toMatchObject({ control: 'number', min: 0, max: 30, preset: 4 });
    expect(byName.eliminationLimit).toMatchObject({ control: 'number', min: 1, preset: 200 });
    expect(byName.assafScoring).toMatchObject({ control: 'select', choices: ['lowest', 'othersZero', 'everyone'], preset: 'othersZero' });
    expect(byName.assafTiePenalty).toMatchObject({ control: 'number', nullable: true, preset: 20 });
    expect(byName.decks).toMatchObject({ control: 'select', choices: [undefined, 1, 2], preset: undefined });
    expect(byName.jokersPerDeck).toMatchObject({ control: 'select', choices: [0, 2, 4], preset: 2 });
    expect(byName.milestones).toBeUndefined();
    const properties = Object.keys((schema as { properties: object }).properties);
    expect(fields.map((f) => f.name).sort()).toEqual(properties.filter((name) => name !== 'milestones').sort());
  });

  it('reads values in words', () => {
    expect([undefined, null, true, false, 7, 'lowest', 'othersZero'].map(valueLabel)).toEqual([
      'as the rules decide',
      'not set',
      'yes',
      'no',
      '7',
      'lowest',
      'others zero',
    ]);
  });
});
