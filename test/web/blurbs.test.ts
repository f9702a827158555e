// The new-game form in a player's words (web/blurbs.ts, web/words.ts): presets and bots described
// without rule sources or agent parameters, which stay behind "Details".
import { describe, expect, it } from 'vitest';
import { describeAgents } from '../../agents/registry.js';
import { PRESETS, PRESET_NAMES, ruleOptionsJsonSchema } from '../../env/index.js';
import { agentBlurb, botName, modelNote, presetBlurb } from '../../web/blurbs.js';
import { ruleFields } from '../../web/ruleOptions.js';
import { labelOf, spaced } from '../../web/words.js';

const JARGON = /RULES\.md|[Ss]ource \d|neural:|PATH|greedy=|samples=|ms=|yanivThreshold|\(seeded\)/;

describe('web/blurbs', () => {
  it('describes every preset by what matters at the table, read from its rules', () => {
    const schema = ruleOptionsJsonSchema();
    for (const name of PRESET_NAMES) {
      const preset = { name, description: PRESETS[name].description };
      const blurb = presetBlurb(preset, ruleFields(schema, { ...PRESETS[name].options }));
      expect(blurb).not.toMatch(JARGON);
      expect(blurb).toMatch(/call Yaniv with \d+ points or less/);
    }
    const dutch = presetBlurb({ name: 'dutch', description: '' }, ruleFields(schema, { ...PRESETS.dutch.options }));
    expect(dutch).toBe(
      'As played in the Netherlands: call Yaniv with 4 points or less; Assaf costs the caller 30; out above 200 points; milestones 50 → 0, 100 → 50, 150 → 100, 200 → 150.',
    );
    const nepal = presetBlurb({ name: 'nepal', description: '' }, ruleFields(schema, { ...PRESETS.nepal.options }));
    expect(nepal).toContain('no jokers; jacks count 0');
    expect(presetBlurb({ name: 'family', description: '' }, ruleFields(schema, { ...PRESETS.family.options }))).toContain('no Assaf');
    expect(presetBlurb({ name: 'house', description: 'a preset the page does not know' }, [])).toBe('a preset the page does not know');
  });

  it('describes every bot for a player, by its base name when the server offers a spec', () => {
    for (const agent of describeAgents()) expect(agentBlurb(agent)).not.toMatch(JARGON);
    const neural = agentBlurb({ name: 'neural', description: '' });
    expect(agentBlurb({ name: 'neural:runs/a?greedy=0', description: 'technical' })).toBe(neural);
    expect(agentBlurb({ name: 'mystery', description: 'its own words' })).toBe('its own words');
  });

  it('names bots in words, never by their spec, and says what a level does without promising more than level 1 keeps', () => {
    for (const agent of describeAgents()) expect(botName(agent.name)).toMatch(/^[A-Z][a-z-]+ bot$/);
    expect(['level:3', 'neural:runs/a?greedy=0', 'strong', 'mystery'].map(botName)).toEqual([
      'Level 3 bot',
      'Trained bot',
      'Strong bot',
      'Mystery bot',
    ]);
    const level = agentBlurb({ name: 'level', description: '' });
    expect(level).not.toMatch(/never (play|makes?) a (silly|bad)/);
    expect(level).toMatch(/level 1/);
  });

  it('turns option names and choices into words', () => {
    expect(labelOf('yanivThreshold')).toBe('Yaniv threshold');
    expect(labelOf('assafPenalty')).toBe('Assaf penalty');
    expect(spaced('othersZero')).toBe('others zero');
    expect(spaced('lastSurvivor')).toBe('last survivor');
  });

  it("says how well the model a bot plays knows the table being set up (as the server resolves it), without the model's name", () => {
    const plays = {
      standard: {
        '2': { model: 'models/standard', fit: 'trained', mismatch: null },
        '5': { model: 'models/standard-34', fit: 'nearest-size', mismatch: 'plays 5 players (trained on 3, 4)' },
      },
      nepal: { '2': { model: 'models/standard', fit: 'default', mismatch: 'plays rules nepal (trained on standard)' } },
    } as const;
    expect(modelNote({ plays }, 'standard', 2, false)).toBe('learned these rules at 2 players');
    expect(modelNote({ plays }, 'standard', 5, false)).toBe(
      'learned these rules at another table size, so it may play below its best here',
    );
    expect(modelNote({ plays }, 'nepal', 2, true)).toMatch(/other rules or table sizes.*your house rules are new to it/);
    expect(modelNote({}, 'standard', 2, false)).toBeNull();
    for (const preset of Object.values(plays))
      for (const players of Object.keys(preset))
        expect(modelNote({ plays }, 'standard', Number(players), true)).not.toMatch(/model|standard/);
  });
});
