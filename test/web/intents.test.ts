// What a key or a click means (web/intents.ts), without a browser: the effect of each intent on
// a table as the page shows it, the follow-up after laying, and when the advisor asks.
import { describe, expect, it } from 'vitest';
import type { LegalAction, Msg } from '../../serve/index.js';
import { type Intent, type Moment, adviceRequest, followUp, resolveIntent } from '../../web/intents.js';
import { intentOf } from '../../web/keyboard.js';

const legal = (action: number, kind: LegalAction['kind'], cards: string[] = []): LegalAction => ({ action, kind, cards, text: kind });

/** Seat 0 to move in `phase`, holding 7H 7D 5S KC (shown as 5S 7H 7D KC), with 9C on offer. */
function stateOf(phase: 'turn' | 'draw' | 'afterDraw', moves: LegalAction[], toMove = 0): Msg<'state'> {
  return {
    type: 'state',
    table: 't-1',
    seat: 0,
    counter: 12,
    toMove,
    legal: toMove === 0 ? moves : [],
    deadlineMs: null,
    view: {
      format: 'yaniv-view/1',
      preset: 'standard',
      rules: {},
      players: 2,
      seat: 0,
      current: toMove,
      phase,
      round: 1,
      turn: 3,
      hand: ['7H', '7D', '5S', 'KC'],
      drawn: null,
      drawnFromDeck: null,
      handSizes: [4, 5],
      known: [[], []],
      previous: { type: 'single', cards: ['9C'], pickable: ['9C'] },
      laid: null,
      pile: [],
      deckSize: 30,
      totals: [0, 0],
    },
  };
}

const TURN = stateOf('turn', [
  legal(0, 'yaniv'),
  legal(3, 'discard', ['5S']),
  legal(20, 'discard', ['7H', '7D']),
  legal(21, 'discard', ['7D', '7H']),
]);
const DRAW = stateOf('draw', [legal(1352, 'draw'), legal(1388, 'take', ['9C'])]);
const moment = (state: Msg<'state'> | null, selected: number[] = [], change: Partial<Moment> = {}): Moment => ({
  state,
  selected,
  resultShown: false,
  sending: false,
  ...change,
});
const act = (move: object, then: object | null = null) => ({ type: 'act', move, then });

describe('web/intents', () => {
  it('picks and unpicks cards by their place in the hand as shown', () => {
    expect(resolveIntent({ type: 'pick', index: 1 }, moment(TURN, [3]))).toEqual({ type: 'select', selected: [3, 1] });
    expect(resolveIntent({ type: 'pick', index: 3 }, moment(TURN, [3, 1]))).toEqual({ type: 'select', selected: [1] });
    expect(resolveIntent({ type: 'pick', index: 4 }, moment(TURN))).toEqual({ type: 'none' });
    expect(resolveIntent({ type: 'clear' }, moment(TURN, [0]))).toEqual({ type: 'select', selected: [] });
  });

  it('lays a pick as its legal discard, in the order picked, and sends any other pick by its cards', () => {
    // Shown: 5S 7H 7D KC.
    expect(resolveIntent({ type: 'lay' }, moment(TURN, [2, 1]))).toEqual(act({ action: 21 }));
    expect(resolveIntent({ type: 'lay' }, moment(TURN, [1, 2]))).toEqual(act({ action: 20 }));
    expect(resolveIntent({ type: 'lay' }, moment(TURN, [0, 3]))).toEqual(act({ cards: ['5S', 'KC'] }));
    expect(resolveIntent({ type: 'lay' }, moment(TURN))).toEqual({ type: 'notice', text: 'Pick the cards to lay first.' });
    expect(resolveIntent({ type: 'lay' }, moment(TURN, [0], { sending: true }))).toEqual({ type: 'none' });
    expect(resolveIntent({ type: 'lay' }, moment(stateOf('turn', [], 1), [0]))).toEqual({ type: 'none' });
  });

  it('draws, or with cards picked lays them and plans the draw', () => {
    expect(resolveIntent({ type: 'draw' }, moment(TURN, [0]))).toEqual(act({ action: 3 }, { kind: 'deck' }));
    expect(resolveIntent({ type: 'take', card: '9C' }, moment(TURN, [0]))).toEqual(act({ action: 3 }, { kind: 'take', card: '9C' }));
    expect(resolveIntent({ type: 'draw' }, moment(DRAW))).toEqual(act({ action: 1352 }));
    expect(resolveIntent({ type: 'take', card: null }, moment(DRAW))).toEqual(act({ action: 1388 }));
    expect(resolveIntent({ type: 'take', card: '8C' }, moment(DRAW))).toEqual({ type: 'none' });
    expect(resolveIntent({ type: 'draw' }, moment(TURN))).toEqual({ type: 'none' });
  });

  it('calls only what is on offer, and only the result dialog answers while it is shown', () => {
    expect(resolveIntent({ type: 'call', kind: 'yaniv' }, moment(TURN))).toEqual(act({ action: 0 }));
    expect(resolveIntent({ type: 'call', kind: 'yaniv' }, moment(DRAW))).toEqual({ type: 'none' });
    expect(resolveIntent({ type: 'call', kind: 'yaniv' }, moment(TURN, [], { sending: true }))).toEqual({ type: 'none' });
    expect(resolveIntent({ type: 'advise' }, moment(null))).toEqual({ type: 'toggleAdvisor' });
    const shown = moment(TURN, [], { resultShown: true });
    expect(resolveIntent({ type: 'clear' }, shown)).toEqual({ type: 'dismissResult' });
    expect(resolveIntent({ type: 'call', kind: 'yaniv' }, shown)).toEqual({ type: 'none' });
  });

  it('keys mean what the clicks mean', () => {
    const press = (key: string) => intentOf({ key, ctrlKey: false, altKey: false, metaKey: false }) as Intent;
    const clicks: [string, Intent][] = [
      ['d', { type: 'draw' }],
      ['Enter', { type: 'lay' }],
      ['y', { type: 'call', kind: 'yaniv' }],
      ['2', { type: 'pick', index: 1 }],
    ];
    for (const [key, click] of clicks)
      for (const m of [moment(TURN, [0]), moment(DRAW)]) expect(resolveIntent(press(key), m)).toEqual(resolveIntent(click, m));
  });

  it('follows a lay with its planned draw, passes when that is the only move, and otherwise waits', () => {
    expect(followUp(DRAW, { kind: 'deck' })).toEqual({ action: 1352 });
    expect(followUp(DRAW, { kind: 'take', card: '9C' })).toEqual({ action: 1388 });
    expect(followUp(DRAW, null)).toBeNull();
    expect(followUp(stateOf('afterDraw', [legal(1406, 'pass')]), null)).toEqual({ action: 1406 });
    expect(followUp(stateOf('afterDraw', [legal(1406, 'pass'), legal(1407, 'slapdown')]), null)).toBeNull();
  });

  it('asks the advisor on the player’s own choices only', () => {
    expect(adviceRequest(TURN, 'strong', null)).toEqual({ type: 'advise', table: 't-1', agent: 'strong' });
    expect(adviceRequest(TURN, 'strong', { kind: 'deck' })).toBeNull();
    expect(adviceRequest(stateOf('turn', [], 1), 'strong', null)).toBeNull();
    expect(adviceRequest(stateOf('afterDraw', [legal(1406, 'pass')]), 'strong', null)).toBeNull();
    expect(adviceRequest(null, 'strong', null)).toBeNull();
  });

  it('T takes the only card on offer; among several, T chooses the next one and Enter takes it', () => {
    const two = (phase: 'turn' | 'draw', moves: LegalAction[]): Msg<'state'> => {
      const state = stateOf(phase, moves);
      return { ...state, view: { ...state.view, previous: { type: 'set', cards: ['9S', '9C'], pickable: ['9S', '9C'] } } };
    };
    const draw = two('draw', [legal(1352, 'draw'), legal(1388, 'take', ['9C']), legal(1389, 'take', ['9S'])]);
    const T = { type: 'take', card: null } as const;
    expect(resolveIntent(T, moment(draw))).toEqual({ type: 'chooseTake', card: '9S' });
    expect(resolveIntent(T, moment(draw, [], { takeChoice: '9S' }))).toEqual({ type: 'chooseTake', card: '9C' });
    expect(resolveIntent(T, moment(draw, [], { takeChoice: '9C' }))).toEqual({ type: 'chooseTake', card: '9S' });
    expect(resolveIntent({ type: 'lay' }, moment(draw, [], { takeChoice: '9C' }))).toEqual(act({ action: 1388 }));
    expect(resolveIntent({ type: 'lay' }, moment(draw, [], { takeChoice: '9S' }))).toEqual(act({ action: 1389 }));
    // In the turn, with cards picked: Enter lays them and plans the chosen take.
    const turn = two('turn', [legal(3, 'discard', ['5S'])]);
    expect(resolveIntent(T, moment(turn, [0]))).toEqual({ type: 'chooseTake', card: '9S' });
    expect(resolveIntent({ type: 'lay' }, moment(turn, [0], { takeChoice: '9C' }))).toEqual(
      act({ action: 3 }, { kind: 'take', card: '9C' }),
    );
    expect(resolveIntent(T, moment(turn))).toEqual({ type: 'none' });
  });
});
