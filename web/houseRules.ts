/**
 * The house-rules part of the new-game form: one control per rule option (web/ruleOptions.ts
 * reads them from welcome.ruleOptions), the milestones as editable rows, the options that do
 * not matter under the chosen values hidden (the schema's `relevantWhen`), and the seed.
 */
import { html } from './html.js';
import { type Pairs, type RuleField, type RuleValue, isRelevant, sameValue, valueLabel } from './ruleOptions.js';
import { labelOf } from './words.js';

export type Rules = Readonly<Record<string, RuleValue>>;

export function valueOf(rules: Rules, field: RuleField): RuleValue {
  return Object.hasOwn(rules, field.name) ? rules[field.name] : field.preset;
}

/** The changes with this field set: a value equal to the preset's is no change. */
export function withRule(rules: Rules, field: RuleField, value: RuleValue): Rules {
  const changed = { ...rules };
  if (sameValue(value, field.preset)) delete changed[field.name];
  else changed[field.name] = value;
  return changed;
}

/** The fields that matter under the preset's values with these changes. */
export function relevantFields(fields: readonly RuleField[], rules: Rules): RuleField[] {
  const values = (name: string) => {
    const field = fields.find((f) => f.name === name);
    return field === undefined ? undefined : valueOf(rules, field);
  };
  return fields.filter((field) => isRelevant(field, values));
}

interface HouseRulesProps {
  readonly fields: readonly RuleField[];
  readonly rules: Rules;
  readonly seed: number | null;
  readonly onRule: (field: RuleField, value: RuleValue) => void;
  readonly onSeed: (seed: number | null) => void;
}

/** The rule options (changes from the preset marked), and the seed, behind a toggle. */
export function HouseRules({ fields, rules, seed, onRule, onSeed }: HouseRulesProps) {
  const changed = Object.keys(rules).length;
  return html`<details class="house-rules">
    <summary>House rules${changed > 0 ? ` (${changed} changed)` : ''}</summary>
    ${relevantFields(fields, rules).map(
      (field) => html`<${RuleInput} key=${field.name} field=${field} value=${valueOf(rules, field)} onChange=${onRule} />`,
    )}
    <label class="row"
      >Seed
      <input
        name="seed"
        type="number"
        inputmode="numeric"
        placeholder="random"
        value=${seed === null ? '' : String(seed)}
        onInput=${(e: Event) => {
          const text = (e.target as HTMLInputElement).value.trim();
          onSeed(text === '' ? null : Number(text));
        }}
      />
    </label>
  </details>`;
}

interface RuleInputProps {
  readonly field: RuleField;
  readonly value: RuleValue;
  readonly onChange: (field: RuleField, value: RuleValue) => void;
}

function RuleInput({ field, value, onChange }: RuleInputProps) {
  const hint = `rule-${field.name}-hint`;
  const changed = valueLabel(value) !== valueLabel(field.preset);
  const label = (control: unknown) =>
    html`<div class=${`rule${changed ? ' changed' : ''}`}>
      <label class="row">
        <span>${labelOf(field.name)}</span>
        ${control}
      </label>
      <p class="hint" id=${hint}>${field.description.replaceAll('`', '')}</p>
    </div>`;
  if (field.control === 'pairs')
    return html`<${PairsInput} field=${field} value=${value as Pairs} hint=${hint} changed=${changed} onChange=${onChange} />`;
  if (field.control === 'checkbox')
    return label(
      html`<input
        type="checkbox"
        name=${field.name}
        aria-describedby=${hint}
        checked=${value === true}
        onChange=${(e: Event) => onChange(field, (e.target as HTMLInputElement).checked)}
      />`,
    );
  if (field.control === 'number')
    return label(
      html`<input
        type="number"
        name=${field.name}
        aria-describedby=${hint}
        min=${field.min}
        max=${field.max}
        placeholder=${field.nullable ? 'not set' : ''}
        value=${typeof value === 'number' ? String(value) : ''}
        onInput=${(e: Event) => {
          const text = (e.target as HTMLInputElement).value.trim();
          onChange(field, text === '' ? (field.nullable ? null : field.preset) : Number(text));
        }}
      />`,
    );
  const choices = field.choices ?? [];
  return label(
    html`<select
      name=${field.name}
      aria-describedby=${hint}
      value=${String(choices.indexOf(value))}
      onChange=${(e: Event) => onChange(field, choices[Number((e.target as HTMLSelectElement).value)])}
    >
      ${choices.map((choice, i) => html`<option key=${i} value=${String(i)}>${valueLabel(choice)}</option>`)}
    </select>`,
  );
}

/** Milestones: one row per pair ("a total landing on 50 becomes 25"), each removable, and a row to add. */
function PairsInput({
  field,
  value,
  hint,
  changed,
  onChange,
}: RuleInputProps & { readonly value: Pairs; readonly hint: string; readonly changed: boolean }) {
  const pairs = value ?? [];
  const set = (index: number, side: 0 | 1, text: string) =>
    onChange(
      field,
      pairs.map((pair, i) => (i === index ? (side === 0 ? [Number(text), pair[1]] : [pair[0], Number(text)]) : pair)),
    );
  const last = pairs[pairs.length - 1];
  const added: readonly [number, number] = last === undefined ? [50, 25] : [last[0] + 50, last[1] + 50];
  return html`<div class=${`rule pairs${changed ? ' changed' : ''}`} role="group" aria-labelledby=${`rule-${field.name}-label`}>
    <span id=${`rule-${field.name}-label`}>${labelOf(field.name)}</span>
    <p class="hint" id=${hint}>A total landing exactly on the first number after a round becomes the second.</p>
    ${pairs.length === 0 ? html`<p class="hint">None.</p>` : null}
    ${pairs.map(
      ([at, to], i) =>
        html`<div class="row pair" key=${i}>
          <label
            >Landing on
            <input
              type="number"
              name=${`${field.name}-${i}-at`}
              min=${field.pairRanges?.[0].min}
              max=${field.pairRanges?.[0].max}
              value=${String(at)}
              onInput=${(e: Event) => set(i, 0, (e.target as HTMLInputElement).value)}
          /></label>
          <label
            >becomes
            <input
              type="number"
              name=${`${field.name}-${i}-to`}
              min=${field.pairRanges?.[1].min}
              max=${field.pairRanges?.[1].max}
              value=${String(to)}
              onInput=${(e: Event) => set(i, 1, (e.target as HTMLInputElement).value)}
          /></label>
          <button
            type="button"
            aria-label=${`Remove the milestone at ${at}`}
            onClick=${() =>
              onChange(
                field,
                pairs.filter((_, j) => j !== i),
              )}
          >
            Remove
          </button>
        </div>`,
    )}
    ${
      field.maxPairs !== undefined && pairs.length >= field.maxPairs
        ? html`<p class="hint">At most ${field.maxPairs} milestones.</p>`
        : html`<button type="button" onClick=${() => onChange(field, [...pairs, added])}>Add a milestone</button>`
    }
  </div>`;
}
