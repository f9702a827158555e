// The rule flags of every command that plays under some rules (bench, train, serve):
// a preset, then a rules file, then single options, each on top of the one before, all validated
// by the one rule schema (env/rules/rules.ts), whose errors name the option and the allowed values.
import { readFileSync } from 'node:fs';
import { type Command, Option } from 'commander';
import { DEFAULT_PRESET, MIN_PLAYERS, PRESET_NAMES, type RuleChoice, RuleError, resolveRules } from '../env/index.js';

/** The parsed flags, as commander hands them over. */
export interface RuleFlags {
  rules?: string;
  rule?: string[];
  rulesFile?: string;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

/** Adds --rules, --rules-file and the repeatable --rule to a command. */
export function ruleOptions(command: Command): Command {
  return command
    .addOption(new Option('--rules <preset>', `rule preset: ${PRESET_NAMES.join(', ')} (default: ${DEFAULT_PRESET})`))
    .addOption(new Option('--rules-file <file>', 'JSON object of rule options, optionally with a "preset"'))
    .addOption(
      new Option(
        '--rule <name=value>',
        'one rule option on top of the preset and the file, value as JSON or a word (repeatable): --rule slapdown=true --rule milestones=[[50,25]]',
      ).argParser(collect),
    );
}

/** `name=value` → [name, value], the value read as JSON when it is JSON, else kept as the text. */
export function parseRuleFlag(text: string): [string, unknown] {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new RuleError(`--rule expects name=value, e.g. --rule slapdown=true (got ${JSON.stringify(text)})`);
  const raw = text.slice(eq + 1);
  try {
    return [text.slice(0, eq), JSON.parse(raw)];
  } catch {
    return [text.slice(0, eq), raw];
  }
}

function readRulesFile(file: string): { preset?: string; options: Record<string, unknown> } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new RuleError(`--rules-file ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new RuleError(`--rules-file ${file}: not JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RuleError(`--rules-file ${file} must hold a JSON object of rule options, e.g. {"preset": "pagat", "slapdown": true}`);
  }
  // Own properties only, whatever their names ("__proto__" included), so that the schema sees and refuses them.
  const { preset, ...options } = value as Record<string, unknown>;
  if (preset !== undefined && typeof preset !== 'string') {
    throw new RuleError(`--rules-file ${file}: "preset" must be a preset name (${PRESET_NAMES.join(', ')}), got ${JSON.stringify(preset)}`);
  }
  return { preset, options };
}

/**
 * The rules the flags select: the preset of --rules, else of the file, else standard; the file's
 * options, then each --rule in order (the last of a name wins). Validated for a table of `players`;
 * a bad preset, option or value throws RuleError naming it.
 */
export function readRuleSelection(flags: RuleFlags, players = MIN_PLAYERS): RuleChoice {
  const file = flags.rulesFile === undefined ? { options: {} } : readRulesFile(flags.rulesFile);
  const rules: Record<string, unknown> = { ...file.options, ...Object.fromEntries((flags.rule ?? []).map(parseRuleFlag)) };
  const preset = flags.rules ?? file.preset ?? DEFAULT_PRESET;
  resolveRules({ preset, rules, players });
  return { preset, rules };
}

/** "standard", or "pagat + {"slapdown":true}": the rules a run used, for its report. */
export function describeRuleChoice({ preset, rules }: RuleChoice): string {
  return Object.keys(rules).length ? `${preset} + ${JSON.stringify(rules)}` : preset;
}
