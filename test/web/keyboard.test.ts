// Keyboard play (web/keyboard.ts): which key is which command, and which keys stay with the element typed in.
import { describe, expect, it } from 'vitest';
import { belongsToTarget, commandFor } from '../../web/keyboard.js';

const press = (key: string, mods: Partial<{ ctrlKey: boolean; altKey: boolean; metaKey: boolean }> = {}) => ({
  key,
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  ...mods,
});

describe('web/keyboard', () => {
  it('maps number keys to cards, Enter to laying them, letters to the other moves', () => {
    expect(commandFor(press('1'))).toEqual({ type: 'pick', index: 0 });
    expect(commandFor(press('7'))).toEqual({ type: 'pick', index: 6 });
    expect(commandFor(press('0'))).toBeNull();
    expect(commandFor(press('Enter'))).toEqual({ type: 'discard' });
    expect(commandFor(press('d'))).toEqual({ type: 'deck' });
    expect(commandFor(press('D'))).toEqual({ type: 'deck' });
    expect(commandFor(press('t'))).toEqual({ type: 'take' });
    expect(commandFor(press('y'))).toEqual({ type: 'yaniv' });
    expect(commandFor(press('q'))).toEqual({ type: 'quick' });
    expect(commandFor(press('s'))).toEqual({ type: 'slapdown' });
    expect(commandFor(press('p'))).toEqual({ type: 'pass' });
    expect(commandFor(press('a'))).toEqual({ type: 'advisor' });
    expect(commandFor(press('Escape'))).toEqual({ type: 'clear' });
    expect(commandFor(press('x'))).toBeNull();
    expect(commandFor(press('d', { ctrlKey: true }))).toBeNull();
    expect(commandFor(press('1', { metaKey: true }))).toBeNull();
    expect(commandFor(press('Enter', { altKey: true }))).toBeNull();
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
