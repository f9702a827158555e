// The rule flags every rules-taking command shares (cli/ruleOptions.ts: --rules, --rules-file,
// --rule name=value), through `yaniv bench`'s real entry point, and `yaniv --version`.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RULE_LIMITS } from '../../env/index.js';
import { scratchFolder, yaniv } from './processes.js';

const folder = scratchFolder('yaniv-rule-flags-');

/** A two-game bench under the given rule flags: the preset and rules its JSON report states, or the failure. */
function bench(...ruleFlags: string[]) {
  const run = yaniv(
    'bench',
    '--agents',
    'intermediate,novice',
    '--games',
    '2',
    '--episode',
    'round',
    '--workers',
    '1',
    '--no-progress',
    '--json',
    '-',
    ...ruleFlags,
  );
  if (run.code !== 0) return { ...run, config: undefined };
  const { preset, rules } = (JSON.parse(run.stdout) as { config: { preset: string; rules: unknown } }).config;
  return { ...run, config: { preset, rules } };
}

function rulesFile(name: string, text: string): string {
  const file = join(folder(), name);
  writeFileSync(file, text);
  return file;
}

describe('rule flags', () => {
  it('apply --rule overrides on top of the preset, values read as JSON or else as words', () => {
    const run = bench(
      '--rules',
      'pagat',
      '--rule',
      'slapdown=true',
      '--rule',
      'yanivThreshold=5',
      '--rule',
      'milestones=[[50,25]]',
      '--rule',
      'nextStarter=lowestHand',
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.config).toMatchObject({
      preset: 'pagat',
      rules: { slapdown: true, yanivThreshold: 5, milestones: [[50, 25]], nextStarter: 'lowestHand' },
    });
  });

  it('read a rules file with its preset; --rules and --rule win over it, the last --rule of a name wins', () => {
    const file = rulesFile('dutch.json', JSON.stringify({ preset: 'dutch', quickDiscard: true, yanivThreshold: 3 }));
    expect(bench('--rules-file', file).config).toEqual({ preset: 'dutch', rules: { quickDiscard: true, yanivThreshold: 3 } });
    const run = bench('--rules-file', file, '--rules', 'norwegian', '--rule', 'yanivThreshold=6', '--rule', 'yanivThreshold=2');
    expect(run.config).toEqual({ preset: 'norwegian', rules: { quickDiscard: true, yanivThreshold: 2 } });
  });

  it.each([
    [['--rule', 'yanivThreshold=31'], 'rule option "yanivThreshold" must be an integer from 0 to 30 (got 31)'],
    // Issue 39: the options a game's length grows with have the maximum the protocol and the page have (RULE_LIMITS).
    [
      ['--rule', `eliminationLimit=${RULE_LIMITS.total + 1}`],
      `rule option "eliminationLimit" must be an integer from 1 to ${RULE_LIMITS.total} (got ${RULE_LIMITS.total + 1})`,
    ],
    [['--rule', 'assafPenalty=1e15'], `rule option "assafPenalty" must be an integer from 0 to ${RULE_LIMITS.penalty}`],
    [
      ['--rule', `yanivsToWin=${RULE_LIMITS.yanivsToWin + 1}`],
      `rule option "yanivsToWin" must be an integer from 1 to ${RULE_LIMITS.yanivsToWin}`,
    ],
    [
      ['--rule', `milestones=${JSON.stringify(Array.from({ length: RULE_LIMITS.milestones + 1 }, (_, i) => [i + 1, 0]))}`],
      `rule option "milestones" must have at most ${RULE_LIMITS.milestones} pairs`,
    ],
    [['--rule', 'assafScoring=all'], 'rule option "assafScoring" must be one of "lowest", "othersZero", "everyone" (got "all")'],
    [['--rule', 'slapdowns=true'], 'unknown rule option "slapdowns"; the rule options are decks, jokersPerDeck'],
    [['--rule', '__proto__=1'], 'unknown rule option "__proto__"'],
    [['--rule', 'slapdown'], '--rule expects name=value, e.g. --rule slapdown=true (got "slapdown")'],
    [['--rules', 'klondike'], 'unknown preset "klondike"; the presets are standard, israeli5'],
    [['--players', '8', '--rule', 'decks=1', '--rule', 'handSize=7'], '8 players with handSize 7 need 57 cards but decks 1'],
  ])('refuse %j: exit 2 naming the problem', (flags, message) => {
    const run = bench(...flags);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });

  it.each([
    ['a missing file', null, /--rules-file .*missing\.json: cannot read it \(ENOENT\)/],
    ['text that is not JSON', '{ slapdown: true }', /--rules-file .*: not JSON/],
    ['a JSON array', '[["slapdown", true]]', /--rules-file .* must hold a JSON object of rule options/],
    ['a preset that is not a name', '{ "preset": 5 }', /"preset" must be a preset name \(standard, israeli5, .*\), got 5/],
    ['an unknown option', '{ "constructor": {} }', /unknown rule option "constructor"/],
  ])('refuse a rules file holding %s', (_what, text, message) => {
    const run = bench('--rules-file', text === null ? join(folder(), 'missing.json') : rulesFile(`bad-${text.length}.json`, text));
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });
});

describe('yaniv --version', () => {
  it('prints the version of package.json', () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const run = yaniv('--version');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${version}\n`);
  });
});
