/**
 * Sound effects, off by default: short tones synthesised with WebAudio (no audio files) for the
 * player's turn, a discard, and a Yaniv call or an Assaf. No AudioContext exists until the player
 * turns sound on (browsers' autoplay rules: it is made in that click); the choice is kept in
 * localStorage (web/storage.ts).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Game } from './game.js';
import { loadSound, saveSound } from './storage.js';

export type Cue = 'turn' | 'discard' | 'yaniv' | 'assaf';

/** Each cue's notes: frequency (Hz) and length (s), played one after another. */
export const CUES: Record<Cue, readonly (readonly [number, number])[]> = {
  turn: [
    [660, 0.08],
    [880, 0.12],
  ],
  discard: [[320, 0.06]],
  yaniv: [
    [523, 0.1],
    [659, 0.1],
    [784, 0.18],
  ],
  assaf: [
    [392, 0.12],
    [311, 0.22],
  ],
};

/** Plays a cue's notes on the context: a soft square wave, each note fading out. */
function play(context: AudioContext, cue: Cue): void {
  let at = context.currentTime;
  for (const [frequency, length] of CUES[cue]) {
    const tone = context.createOscillator();
    const gain = context.createGain();
    tone.type = 'triangle';
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.15, at);
    gain.gain.exponentialRampToValueAtTime(0.001, at + length);
    tone.connect(gain).connect(context.destination);
    tone.start(at);
    tone.stop(at + length);
    at += length;
  }
}

/** What the latest change of the game sounds like (null: nothing), given this page's seat. */
export function cueOf(before: Game | null, game: Game, myTurn: boolean, wasMyTurn: boolean): Cue | null {
  const result = game.rounds.length > (before?.rounds.length ?? 0) ? game.rounds[game.rounds.length - 1] : null;
  if (result !== null && (result.outcome === 'yaniv' || result.outcome === 'assaf')) return result.outcome;
  if (myTurn && !wasMyTurn) return 'turn';
  const last = game.log[game.log.length - 1];
  const played = before === null || last === undefined ? null : last.counter > (before.log[before.log.length - 1]?.counter ?? -1);
  return played && last?.kind === 'discard' ? 'discard' : null;
}

export interface Sound {
  readonly on: boolean;
  readonly toggle: () => void;
}

/** The sound toggle, and the cues of the game as it changes (while on). */
export function useSound(game: Game | null, myTurn: boolean): Sound {
  const [on, setOn] = useState(loadSound);
  const context = useRef<AudioContext | null>(null);
  const before = useRef<{ game: Game | null; myTurn: boolean }>({ game: null, myTurn: false });
  useEffect(() => {
    const was = before.current;
    before.current = { game, myTurn };
    if (!on || game === null || context.current === null) return;
    const cue = cueOf(was.game?.info.table === game.info.table ? was.game : null, game, myTurn, was.myTurn);
    if (cue !== null) play(context.current, cue);
  }, [game, myTurn, on]);
  // Turned on in an earlier visit: the context is made at the player's first tap or key here.
  useEffect(() => {
    if (!on || context.current !== null) return;
    const wake = () => {
      context.current ??= new AudioContext();
      stop();
    };
    const stop = () => ['pointerdown', 'keydown'].forEach((type) => document.removeEventListener(type, wake));
    ['pointerdown', 'keydown'].forEach((type) => document.addEventListener(type, wake));
    return stop;
  }, [on]);
  const toggle = () => {
    const next = !on;
    // Made (or resumed) in the player's click, as autoplay rules ask; never before sound is on.
    if (next) context.current ??= new AudioContext();
    if (next) void context.current?.resume();
    saveSound(next);
    setOn(next);
  };
  return { on, toggle };
}
