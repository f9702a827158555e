// Advice asked with a reply is answered by the client's frame, written where it was decided: the
// same message the advice itself makes, in either encoding; a worker posts a batch's MessagePack
// frames in one buffer of their own, transferred, and they arrive as they left.
import { played } from '../helpers.js';
import { Packr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { YanivEnv, playerView, randomLegalAction, seededRng } from '../../../env/index.js';
import { type AdviceReply, adviceMessage, framesInOneBuffer } from '../../../serve/inference/adviceReply.js';
import { type DecideRequest, decideBatch } from '../../../serve/inference/decide.js';
import { serverMessageSchema } from '../../../serve/protocol/protocol.js';

function requests(count: number): DecideRequest[] {
  const env = new YanivEnv({ players: 3, seed: 5 });
  let { info } = env.reset();
  const rng = seededRng(5);
  const list: DecideRequest[] = [];
  while (list.length < count) {
    const view = playerView(env.state, info.currentPlayer);
    list.push({
      agent: played('strong'),
      source: { kind: 'playerView', view },
      seed: list.length,
      explain: true,
      outlook: list.length % 2 === 0,
    });
    ({ info } = env.step(randomLegalAction(info.actionMask, rng)));
    if (env.done) ({ info } = env.reset());
  }
  return list;
}

const unpack = (bytes: Uint8Array) => new Packr({ useRecords: false, mapsAsObjects: true }).unpack(bytes) as unknown;

describe('advice answered by its frame', () => {
  it.each(['json', 'msgpack'] as const)('in %s is the message the advice makes', async (encoding) => {
    const asked = requests(6);
    const plain = await decideBatch(asked);
    const reply = (i: number): AdviceReply => ({ id: i, agent: 'strong', model: null, encoding });
    const framed = await decideBatch(asked.map((request, i) => ({ ...request, reply: reply(i) })));
    // As a worker posts them: MessagePack frames moved into one transferred buffer.
    const { results, transfer } = framesInOneBuffer(framed);
    const posted = structuredClone(results, { transfer });
    expect(transfer.length).toBe(encoding === 'msgpack' ? 1 : 0);
    for (const [i, result] of [...framed.entries(), ...posted.entries()]) {
      const expected = plain[i];
      if (!result.ok || !expected.ok || !expected.advice) throw new Error('advice failed');
      expect(result.advice).toBeUndefined();
      const frame = result.frame;
      if (frame === undefined) throw new Error('no frame');
      expect(typeof frame === 'string').toBe(encoding === 'json');
      const decoded = typeof frame === 'string' ? (JSON.parse(frame) as unknown) : unpack(frame);
      expect(serverMessageSchema.parse(decoded)).toEqual(adviceMessage(reply(i), expected.advice));
    }
    if (encoding === 'msgpack') {
      const buffers = new Set(posted.map((r) => (r.ok && r.frame instanceof Uint8Array ? r.frame.buffer : null)));
      expect(buffers.size).toBe(1);
    }
  });

  it('writes each ranked action and move as its legal action, then its figures, field by field', async () => {
    // The frame's bytes follow the fields' order: a legal action's, then the score or the move's figures.
    const results = await decideBatch(requests(6));
    let moves = 0;
    for (const result of results) {
      if (!result.ok || !result.advice) throw new Error('advice failed');
      const { legal, actions } = result.advice;
      const legalKeys = Object.keys(legal[0]);
      const legalPart = (o: object) => Object.fromEntries(legalKeys.map((k) => [k, o[k as keyof typeof o]]));
      const legalOf = (action: number) => legal.find((l) => l.action === action);
      for (const action of actions) {
        expect(Object.keys(action)).toEqual([...legalKeys, 'score']);
        expect(legalPart(action)).toEqual(legalOf(action.action));
      }
      for (const move of result.advice.moves ?? []) {
        expect(Object.keys(move)).toEqual([...legalKeys, 'win', 'points', 'reasons', 'standing']);
        expect(legalPart(move)).toEqual(legalOf(move.action));
        moves++;
      }
    }
    expect(moves).toBeGreaterThan(0);
  });
});
