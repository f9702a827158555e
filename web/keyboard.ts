/**
 * Keyboard play: number keys pick cards of the hand (1 is the leftmost), Enter lays them, D
 * draws from the deck (after laying the picked cards, if any), T takes the card on offer (among
 * several, T chooses one, T again the next, Enter takes it),
 * Y calls Yaniv, Q / S / P answer a quick-discard or slapdown offer, A turns the advisor on or
 * off, Escape clears the picks. Keys typed into a form field, or with Ctrl, Alt or Meta, are
 * left alone.
 */
import type { Intent } from './intents.js';

export interface KeyPress {
  readonly key: string;
  readonly ctrlKey: boolean;
  readonly altKey: boolean;
  readonly metaKey: boolean;
}

const LETTERS: Record<string, Intent> = {
  d: { type: 'draw' },
  t: { type: 'take', card: null },
  y: { type: 'call', kind: 'yaniv' },
  q: { type: 'call', kind: 'quick' },
  s: { type: 'call', kind: 'slapdown' },
  p: { type: 'call', kind: 'pass' },
  a: { type: 'advise' },
};

/** What a key press means, or null. */
export function intentOf(press: KeyPress): Intent | null {
  if (press.ctrlKey || press.altKey || press.metaKey) return null;
  if (/^[1-9]$/.test(press.key)) return { type: 'pick', index: Number(press.key) - 1 };
  if (press.key === 'Enter') return { type: 'lay' };
  if (press.key === 'Escape') return { type: 'clear' };
  return LETTERS[press.key.toLowerCase()] ?? null;
}

export interface KeyTarget {
  readonly tagName?: string;
  readonly type?: string;
  readonly dataset?: DOMStringMap;
}

/** Whether the key belongs to the element it was typed in (a form field, or a button's own Enter and Space). */
export function belongsToTarget(press: KeyPress, target: KeyTarget | null): boolean {
  const tag = target?.tagName?.toLowerCase();
  // A checkbox (the advisor's) only toggles on Space: the other keys still play.
  if (tag === 'input' && (target?.type === 'checkbox' || target?.type === 'radio')) return press.key === ' ';
  if (tag === 'input' || tag === 'select' || tag === 'textarea') return true;
  const activates = press.key === 'Enter' || press.key === ' ';
  // A card's own Enter lays the picked cards, as anywhere else; other buttons keep theirs.
  return activates && (tag === 'button' || tag === 'a' || tag === 'summary') && target?.dataset?.card === undefined;
}
