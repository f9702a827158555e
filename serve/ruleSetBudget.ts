/**
 * How many new house-rule sets one client address may have advice measured on. The chance to win
 * under rules with no shipped equity is measured by simulated games (agents/equityPlayouts.ts:
 * about a second of a worker, bounded at a few), once per rule set and kept; a client naming new
 * rules in every request would keep the workers busy for everyone. So each address may have one
 * new set measured at a time and `perMinute` a minute; past that its advice comes without the
 * chance to win (`unmeasured` says why), as quickly as any other. A preset as it is (no
 * overrides) is never counted: there are few of them.
 */
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

const MINUTE_MS = 60_000;

/**
 * A rule set as the budget keeps it: a digest of what the client sent (checked later, by the
 * request), so that an entry holds a few bytes whatever the message's size (up to --max-payload).
 */
export function ruleSetKey(preset: string, rules: object, players: number): string {
  return createHash('sha256')
    .update(JSON.stringify([preset, rules, players]))
    .digest('base64url');
}

export class RuleSetBudget {
  /** Per address, the new sets it asked within the minute (by key, when) and whether one is being measured. */
  private readonly byAddress = new LRUCache<string, { readonly recent: Map<string, number>; measuring: boolean }>({ max: 4096 });

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Whether advice on `rules` (a table's preset, overrides and size) from `address` may have its
   * chance to win measured: if so `done`, to call once it is answered; else the reason why not.
   */
  take(address: string, preset: string, rules: object, players: number): { done: () => void } | { unmeasured: string } {
    const none = { done: () => undefined };
    if (Object.keys(rules).length === 0) return none;
    const key = ruleSetKey(preset, rules, players);
    let entry = this.byAddress.get(address);
    if (!entry) this.byAddress.set(address, (entry = { recent: new Map(), measuring: false }));
    const now = this.now();
    for (const [known, at] of entry.recent) if (now - at >= MINUTE_MS) entry.recent.delete(known);
    if (entry.recent.has(key)) return none;
    if (entry.measuring || entry.recent.size >= this.perMinute)
      return {
        unmeasured: entry.measuring
          ? 'the chance to win under these house rules is being measured for another request from your address: ask again in a moment'
          : `your address asked advice on ${this.perMinute} new house-rule sets this minute, the most the server measures the chance to win for (--new-rule-sets-per-minute)`,
      };
    entry.recent.set(key, now);
    entry.measuring = true;
    const measuring = entry;
    return { done: () => (measuring.measuring = false) };
  }
}
