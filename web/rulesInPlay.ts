/**
 * The rules of the table being played, on the table: one line of what matters most (the
 * preset's line, from the settled rules the server dealt with), and behind it every option
 * that matters here with its value, the house rules marked.
 */
import { presetBlurb } from './blurbs.js';
import type { TableInfo } from './game.js';
import { relevantFields } from './houseRules.js';
import { html } from './html.js';
import type { Msg } from '../client/protocol.js';
import { ruleFields, valueLabel } from './ruleOptions.js';
import { labelOf } from './words.js';

export function RulesInPlay({ info, welcome }: { readonly info: TableInfo; readonly welcome: Msg<'welcome'> }) {
  const preset = welcome.presets.find((p) => p.name === info.preset) ?? { name: info.preset, description: '' };
  const fields = relevantFields(ruleFields(welcome.ruleOptions, info.settledRules), {});
  const house = Object.keys(info.rules);
  return html`<details class="rules-in-play">
    <summary>
      <b>Rules: ${info.preset}${house.length > 0 ? ` with ${house.length} house rule${house.length === 1 ? '' : 's'}` : ''}</b>
      <span class="hint"> — ${presetBlurb(preset, fields)}</span>
    </summary>
    <dl>
      ${fields.map(
        (field) =>
          html`<div key=${field.name} class=${house.includes(field.name) ? 'changed' : ''}>
            <dt>${labelOf(field.name)}${house.includes(field.name) ? ' (house rule)' : ''}</dt>
            <dd>${valueLabel(field.preset)}</dd>
          </div>`,
      )}
    </dl>
    <p class="hint"><a href="/rules.html" target="_blank" rel="noopener">How to play</a> explains every rule.</p>
  </details>`;
}
