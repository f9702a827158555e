// Keyboard play (web/keyboard.ts): which key is which command, and which keys stay with the element typed in.
import { describe, expect, it } from 'vitest';
import { belongsToTarget, intentOf } from '../../web/keyboard.js';

const press = (key: string, mods: Partial<{ ctrlKey: boolean; altKey: boolean; metaKey: boolean }> = {}) => ({
  key,
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  ...mods,
});

describe('web/keyboard', () => {
  it('maps number keys to cards, Enter to laying them, letters to the other moves', () => {
    expect(intentOf(press('1'))).toEqual({ type: 'pick', index: 0 });
    expect(intentOf(press('7'))).toEqual({ type: 'pick', index: 6 });
    expect(intentOf(press('0'))).toBeNull();
    expect(intentOf(press('Enter'))).toEqual({ type: 'lay' });
    expect(intentOf(press('d'))).toEqual({ type: 'draw' });
    expect(intentOf(press('D'))).toEqual({ type: 'draw' });
    expect(intentOf(press('t'))).toEqual({ type: 'take', card: null });
    expect(intentOf(press('y'))).toEqual({ type: 'call', kind: 'yaniv' });
    expect(intentOf(press('q'))).toEqual({ type: 'call', kind: 'quick' });
    expect(intentOf(press('s'))).toEqual({ type: 'call', kind: 'slapdown' });
    expect(intentOf(press('p'))).toEqual({ type: 'call', kind: 'pass' });
    expect(intentOf(press('a'))).toEqual({ type: 'advise' });
    expect(intentOf(press('Escape'))).toEqual({ type: 'clear' });
    expect(intentOf(press('x'))).toBeNull();
    expect(intentOf(press('d', { ctrlKey: true }))).toBeNull();
    expect(intentOf(press('1', { metaKey: true }))).toBeNull();
    expect(intentOf(press('Enter', { altKey: true }))).toBeNull();
  });

  it('leaves form fields their keys, and buttons their own Enter and Space, but a card button its Enter', () => {
    expect(belongsToTarget(press('d'), { tagName: 'INPUT' })).toBe(true);
    expect(belongsToTarget(press('1'), { tagName: 'SELECT' })).toBe(true);
    expect(belongsToTarget(press('1'), { tagName: 'INPUT', type: 'number' })).toBe(true);
    expect(belongsToTarget(press('1'), { tagName: 'INPUT', type: 'checkbox' })).toBe(false);
    expect(belongsToTarget(press('Enter'), { tagName: 'INPUT', type: 'checkbox' })).toBe(false);
    expect(belongsToTarget(press(' '), { tagName: 'INPUT', type: 'checkbox' })).toBe(true);
    expect(belongsToTarget(press('Enter'), { tagName: 'BUTTON', dataset: {} })).toBe(true);
    expect(belongsToTarget(press(' '), { tagName: 'BUTTON', dataset: {} })).toBe(true);
    expect(belongsToTarget(press('Enter'), { tagName: 'A', dataset: {} })).toBe(true);
    expect(belongsToTarget(press('d'), { tagName: 'BUTTON', dataset: {} })).toBe(false);
    expect(belongsToTarget(press('Enter'), { tagName: 'BUTTON', dataset: { card: '7H' } })).toBe(false);
    expect(belongsToTarget(press('Enter'), { tagName: 'BODY', dataset: {} })).toBe(false);
    expect(belongsToTarget(press('Enter'), null)).toBe(false);
  });
});
