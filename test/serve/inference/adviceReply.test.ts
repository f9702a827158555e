// Advice asked with a reply is answered by the client's frame, written where it was decided: the
// same message the advice itself makes, in either encoding; a worker posts a batch's MessagePack
// frames in one buffer of their own, transferred, and they arrive as they left.
import { played } from '../helpers.js';
import { Packr } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PRESET, YanivEnv, playerView, randomLegalAction, seededRng } from '../../../env/index.js';
import { type AdviceReply, adviceMessage, framesInOneBuffer } from '../../../serve/inference/adviceReply.js';
import { type DecideRequest, crossingToWorker, decideBatch } from '../../../serve/inference/decide.js';
import { viewToJson } from '../../../serve/protocol/viewJson.js';
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
});

describe('a view crossing to a worker', () => {
  /** The requests as a client sends them: its view as JSON, the frame in its encoding. */
  const sent = (encoding: 'json' | 'msgpack'): DecideRequest[] =>
    requests(8).map((request, i) => {
      if (request.source.kind !== 'playerView') throw new Error('a table view expected');
      const view = JSON.parse(JSON.stringify(viewToJson(request.source.view, DEFAULT_PRESET, {}))) as unknown;
      return { ...request, source: { kind: 'view', view }, reply: { id: i, agent: 'strong', model: null, encoding } };
    });

  it("crosses as JSON text from a JSON client, and the worker answers the same frames, errors named as the view's", async () => {
    const asked = sent('json');
    const view = (asked[0].source as { view: { seat: number } }).view;
    const broken = [
      { ...view, seat: 7 },
      { ...view, current: (view.seat + 1) % 3 },
    ].map((bad) => ({ ...asked[0], source: { kind: 'view', view: bad } }) as const);
    const crossing = [...asked, ...broken].map(crossingToWorker);
    expect(crossing.every((request) => request.source.kind === 'viewText')).toBe(true);
    const [direct, crossed] = await Promise.all([decideBatch([...asked, ...broken]), decideBatch(structuredClone(crossing))]);
    expect(crossed).toEqual(direct);
    expect(crossed.filter((result) => result.ok)).toHaveLength(asked.length);
    expect(crossed.at(-2)).toMatchObject({ ok: false, code: 'bad_message', field: 'view.seat' });
    expect(crossed.at(-1)).toMatchObject({ ok: false, code: 'not_your_turn', field: 'view.seat' });
  });

  it('crosses as it is from a MessagePack client, and with no reply', () => {
    for (const request of sent('msgpack')) expect(crossingToWorker(request)).toBe(request);
    for (const request of requests(3)) expect(crossingToWorker(request)).toBe(request);
  });
});
