// The house-rules form (web/ruleOptions.ts) from the real rule-option schema of welcome.
import { describe, expect, it } from 'vitest';
import { PRESETS, RULE_LIMITS, ruleOptionsJsonSchema } from '../../env/index.js';
import { type Rules, relevantFields } from '../../web/houseRules.js';
import { ruleFields, sameValue, valueLabel } from '../../web/ruleOptions.js';

const schema = ruleOptionsJsonSchema();

describe('web/ruleOptions', () => {
  it('offers every rule option a form control can hold, with the preset value as default', () => {
    const fields = ruleFields(schema, { ...PRESETS.dutch.options });
    const byName = Object.fromEntries(fields.map((f) => [f.name, f]));
    expect(byName.slapdown).toMatchObject({ control: 'checkbox', preset: false });
    expect(byName.quickDiscard).toMatchObject({ control: 'checkbox', preset: false });
    expect(byName.yanivThreshold).toMatchObject({ control: 'number', min: 0, max: 30, preset: 4 });
    expect(byName.eliminationLimit).toMatchObject({ control: 'number', min: 1, max: RULE_LIMITS.total, preset: 200 });
    expect(byName.assafPenalty).toMatchObject({ control: 'number', min: 0, max: RULE_LIMITS.penalty });
    expect(byName.yanivsToWin).toMatchObject({ control: 'number', min: 1, max: RULE_LIMITS.yanivsToWin });
    expect(byName.assafScoring).toMatchObject({ control: 'select', choices: ['lowest', 'othersZero', 'everyone'], preset: 'othersZero' });
    expect(byName.assafTiePenalty).toMatchObject({ control: 'number', nullable: true, max: RULE_LIMITS.penalty, preset: 20 });
    expect(byName.decks).toMatchObject({ control: 'select', choices: [undefined, 1, 2], preset: undefined });
    expect(byName.jokersPerDeck).toMatchObject({ control: 'select', choices: [0, 2, 4], preset: 2 });
    expect(byName.milestones).toMatchObject({
      control: 'pairs',
      maxPairs: RULE_LIMITS.milestones,
      pairRanges: [
        { min: 1, max: RULE_LIMITS.total },
        { min: 0, max: RULE_LIMITS.total },
      ],
      preset: PRESETS.dutch.options.milestones,
    });
    const properties = Object.keys((schema as { properties: object }).properties);
    expect(fields.map((f) => f.name).sort()).toEqual(properties.sort());
  });

  it('hides the options that do not matter under the chosen values, as the schema says', () => {
    const visible = (preset: Record<string, unknown>, rules: Rules) => relevantFields(ruleFields(schema, preset), rules).map((f) => f.name);
    const standard = visible({}, {});
    expect(standard).toEqual(expect.arrayContaining(['assafPenalty', 'assafScoring', 'assafTiePenalty', 'milestones']));
    expect(standard).not.toContain('yanivsToWin');
    const family = visible({ ...PRESETS.family.options }, {});
    expect(PRESETS.family.options).toMatchObject({ assaf: false });
    expect(family).not.toEqual(expect.arrayContaining(['assafPenalty']));
    expect(family.filter((name) => name.startsWith('assaf'))).toEqual(['assaf']);
    expect(visible({}, { assaf: false, gameEnd: 'yanivCount' })).toContain('yanivsToWin');
    // Every hidden option names the options it depends on, and those exist.
    const names = Object.keys((schema as { properties: object }).properties);
    for (const field of ruleFields(schema, {}))
      for (const name of Object.keys(field.relevantWhen ?? {})) expect(names, `${field.name} depends on ${name}`).toContain(name);
  });

  it('reads values in words', () => {
    expect(
      valueLabel([
        [50, 25],
        [100, 50],
      ]),
    ).toBe('50 → 25, 100 → 50');
    expect(valueLabel([])).toBe('none');
    expect(sameValue([[50, 25]], [[50, 25]])).toBe(true);
    expect(sameValue([[50, 25]], [[50, 20]])).toBe(false);
    expect([undefined, null, true, false, 7, 'othersZero', 'roundWinner', 'someNewChoice'].map(valueLabel)).toEqual([
      'as the rules decide',
      'not set',
      'yes',
      'no',
      '7',
      'everyone but the caller scores 0',
      'the round’s winner',
      'some new choice',
    ]);
  });

  it('words every choice of every rule option, with no camelCase name left', () => {
    const choices = ruleFields(ruleOptionsJsonSchema(), {}).flatMap((field) => field.choices ?? []);
    expect(choices.length).toBeGreaterThan(5);
    for (const choice of choices) expect(valueLabel(choice)).not.toMatch(/[a-z][A-Z]/);
  });
});
