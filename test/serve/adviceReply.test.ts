// Advice asked with a reply is answered by the client's frame, written where it was decided: the
// same message the advice itself makes, in either encoding, and MessagePack bytes in a buffer of
// their own (a worker transfers it: a shared buffer would be copied whole, or lost to the next).
import { Packr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { YanivEnv, playerView, randomLegalAction, seededRng } from '../../env/index.js';
import { type AdviceReply, adviceMessage, frameBuffers } from '../../serve/adviceReply.js';
import { type DecideRequest, decideBatch } from '../../serve/decide.js';
import { serverMessageSchema } from '../../serve/protocol.js';

function requests(count: number): DecideRequest[] {
  const env = new YanivEnv({ players: 3, seed: 5 });
  let { info } = env.reset();
  const rng = seededRng(5);
  const list: DecideRequest[] = [];
  while (list.length < count) {
    const view = playerView(env.state, info.currentPlayer);
    list.push({ agent: 'strong', source: { kind: 'playerView', view }, seed: list.length, explain: true, outlook: list.length % 2 === 0 });
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
    framed.forEach((result, i) => {
      const expected = plain[i];
      if (!result.ok || !expected.ok || !expected.advice) throw new Error('advice failed');
      expect(result.advice).toBeUndefined();
      const frame = result.frame;
      if (frame === undefined) throw new Error('no frame');
      const decoded = typeof frame === 'string' ? (JSON.parse(frame) as unknown) : unpack(frame);
      expect(serverMessageSchema.parse(decoded)).toEqual(adviceMessage(reply(i), expected.advice));
      expect(typeof frame === 'string').toBe(encoding === 'json');
    });
    const buffers = frameBuffers(framed);
    expect(buffers.length).toBe(encoding === 'msgpack' ? framed.length : 0);
    for (const [i, buffer] of buffers.entries()) expect(buffer.byteLength).toBe((framed[i] as { frame: Uint8Array }).frame.byteLength);
  });
});
