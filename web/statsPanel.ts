/** "Your stats": the player's statistics in this browser (web/stats.ts), with Reset (after a confirm). */
import { html } from './html.js';
import { STAT_WORDS, type Stats } from './stats.js';

export function StatsPanel({ stats, onReset }: { readonly stats: Stats; readonly onReset: () => void }) {
  return html`<details class="your-stats">
    <summary>Your stats</summary>
    <dl>
      ${STAT_WORDS.map(
        ([key, words]) =>
          html`<div key=${key} data-stat=${key}>
            <dt>${words}</dt>
            <dd>${stats[key]}</dd>
          </div>`,
      )}
    </dl>
    <p class="hint">Kept in this browser only, one game at a time as it ends.</p>
    <button type="button" onClick=${onReset}>Reset</button>
  </details>`;
}
