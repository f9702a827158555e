// The bridge process through its real entry point: the handshake, bad frames answered with named
// errors (the process goes on), and the state frames' layout against the env itself.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ACTION_COUNT, ACTION_SPACE_VERSION } from '../../env/gym/actionLayout.js';
import { OBSERVATION_SIZE } from '../../env/gym/observation.js';
import { YanivEnv } from '../../env/gym/yanivEnv.js';
import { VecEnv } from '../../env/gym/vecEnv.js';
import { BRIDGE_PROTOCOL, KIND, SHARED_ARRAYS, type SharedArray, VECTOR_HEADER, VECTOR_SHARED, align4 } from '../../bridge/protocol.js';
import { Client, HELLO } from './client.js';

let client: Client;
afterEach(async () => {
  await client.close();
});

describe('the bridge', () => {
  it('refuses a version mismatch naming both sides, then takes a good hello', async () => {
    client = new Client();
    client.json({ ...HELLO, actions: 'yaniv-actions/0' });
    expect(await client.replyJson()).toEqual({
      type: 'error',
      kind: 'version',
      message: `version mismatch: the client speaks actions yaniv-actions/0, this bridge speaks ${ACTION_SPACE_VERSION}`,
    });
    client.json(HELLO);
    expect(await client.replyJson()).toMatchObject({ type: 'hello', observationSize: OBSERVATION_SIZE, protocol: BRIDGE_PROTOCOL });
  });

  it('answers bad frames with named errors and goes on', async () => {
    client = new Client();
    const cases: [unknown, string, RegExp][] = [
      [Buffer.of(KIND.reset, 1, 0, 0, 0, 0, 0, 0), 'state', /make a session first/],
      [{ type: 'make', kind: 'aec', env: { players: 2 } }, 'state', /say hello first/],
      [Buffer.from('Jnot json'), 'protocol', /does not parse/],
      [{ type: 'launch' }, 'protocol', /request field "type"/],
      [Buffer.of(0x21), 'state', /make a session first/],
    ];
    for (const [frame, kind, message] of cases) {
      if (frame instanceof Uint8Array) client.send(frame);
      else client.json(frame);
      const reply = await client.replyJson();
      expect(reply).toMatchObject({ type: 'error', kind });
      expect(reply.message).toMatch(message);
    }
    client.json(HELLO);
    await client.replyJson();
    client.json({ type: 'make', kind: 'aec', env: { players: 2, rules: { handSize: 12 } } });
    expect(await client.replyJson()).toMatchObject({ kind: 'options', message: expect.stringMatching(/handSize/) });
    client.json({ type: 'make', kind: 'aec', env: { players: 2 } });
    expect(await client.replyJson()).toMatchObject({ type: 'made', players: 2 });
    client.send(Buffer.of(KIND.reset, 1, 0));
    expect(await client.replyJson()).toMatchObject({ kind: 'protocol', message: expect.stringMatching(/8 bytes/) });
    client.send(Buffer.of(0x21));
    expect(await client.replyJson()).toMatchObject({ kind: 'protocol', message: 'unknown frame kind 33' });
  });

  it("sends the AEC env's own observation, rewards and legal ids", async () => {
    client = new Client();
    client.json(HELLO);
    await client.replyJson();
    client.json({ type: 'make', kind: 'aec', env: { players: 3 } });
    await client.replyJson();
    const env = new YanivEnv({ players: 3, history: false });
    let { observation, info } = env.reset({ seed: 9 });
    const reset = Buffer.alloc(8);
    reset.writeUInt8(KIND.reset, 0);
    reset.writeUInt8(1, 1);
    reset.writeInt32LE(9, 4);
    client.send(reset);
    for (let step = 0; step < 40; step++) {
      const body = await client.reply();
      expect(body[0]).toBe(KIND.aec);
      expect(body.readInt8(2)).toBe(info.currentPlayer);
      expect(body.readUInt16LE(4)).toBe(info.legalCount);
      const obsAt = 8 + 4 * 3;
      expect(body.subarray(obsAt, obsAt + 4 * OBSERVATION_SIZE)).toEqual(
        Buffer.from(observation.buffer, observation.byteOffset, observation.byteLength),
      );
      const ids = body.subarray(obsAt + 4 * OBSERVATION_SIZE);
      expect(Array.from({ length: ids.length / 2 }, (_, i) => ids.readInt16LE(2 * i))).toEqual(
        Array.from(info.legalIds.subarray(0, info.legalCount)),
      );
      const action = info.legalIds[step % info.legalCount];
      const frame = Buffer.alloc(8);
      frame.writeUInt8(KIND.step, 0);
      frame.writeInt32LE(action, 4);
      client.send(frame);
      ({ observation, info } = env.step(action));
    }
    const illegal = Buffer.alloc(8);
    illegal.writeUInt8(KIND.step, 0);
    illegal.writeInt32LE(5000, 4);
    await client.reply();
    client.send(illegal);
    expect(await client.replyJson()).toMatchObject({ kind: 'illegal', message: expect.stringMatching(/5000 is not an action id/) });
  });

  /** A vector session of two games, the second and third of the batch (firstGame 1), made and reset with seed 4; its reply. */
  async function vectorReply(shared?: { file: string; at: Record<SharedArray, number> }): Promise<Buffer> {
    client = new Client();
    client.json(HELLO);
    await client.replyJson();
    client.json({ type: 'make', kind: 'vector', env: { players: 2 }, num: 2, firstGame: 1, ...(shared ? { shared } : {}) });
    expect(await client.replyJson()).toMatchObject({ type: 'made', shared: shared !== undefined });
    client.send(Buffer.of(KIND.reset, 1, 0, 0, 4, 0, 0, 0));
    return client.reply();
  }

  /** The env the session plays: games 1 and 2 of a batch reset with seed 4. */
  function expectedVec(): { bytes: Record<SharedArray, Buffer>; positions: number[] } {
    const vec = new VecEnv({ players: 2, num: 2, history: false });
    vec.reset(5);
    const array = (name: SharedArray) => (name === 'actorRewards' ? new Float32Array(2) : vec[name]); // no step yet: no reward
    const bytes = Object.fromEntries(
      SHARED_ARRAYS.map((name) => [name, Buffer.from(array(name).buffer, array(name).byteOffset, array(name).byteLength)]),
    );
    const positions = [0, 1].flatMap((i) =>
      Array.from(vec.legalIds.subarray(i * ACTION_COUNT, i * ACTION_COUNT + vec.legalCounts[i]), (id) => (1 + i) * ACTION_COUNT + id),
    );
    return { bytes: bytes as Record<SharedArray, Buffer>, positions };
  }

  const positionsIn = (body: Buffer, at: number) => Array.from({ length: body.readUInt32LE(4) }, (_, k) => body.readInt32LE(at + 4 * k));

  it("sends a vector session's arrays in the reply, in order, and the legal ids as positions in the batch's mask", async () => {
    const body = await vectorReply();
    const { bytes, positions } = expectedVec();
    expect([body[0], body[1], body.readUInt32LE(8)]).toEqual([KIND.vector, 0, 0]);
    let at = VECTOR_HEADER;
    for (const name of SHARED_ARRAYS) {
      expect(body.subarray(at, at + bytes[name].length), name).toEqual(bytes[name]);
      at += bytes[name].length;
    }
    expect(positionsIn(body, align4(at))).toEqual(positions);
  });

  it("writes a vector session's arrays into the client's shared file at the offsets it gave, and not into the reply", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'yaniv-bridge-'));
    const file = path.join(folder, 'batch');
    const { bytes, positions } = expectedVec();
    // The observations after a gap, the rest end to end from byte 0 (two writes), as a client may lay them out.
    const at = {} as Record<SharedArray, number>;
    let end = 0;
    for (const name of SHARED_ARRAYS.filter((name) => name !== 'observations')) {
      at[name] = end;
      end += bytes[name].length;
    }
    at.observations = end + 100;
    writeFileSync(file, Buffer.alloc(at.observations + bytes.observations.length));
    const refused = async (shared: { file: string; at: Record<SharedArray, number> }, message: RegExp) => {
      client = new Client();
      client.json(HELLO);
      await client.replyJson();
      client.json({ type: 'make', kind: 'vector', env: { players: 2 }, num: 2, shared });
      expect(await client.replyJson()).toMatchObject({ kind: 'options', message: expect.stringMatching(message) });
      await client.close();
    };
    await refused({ file: path.join(folder, 'none'), at }, /cannot open the shared file/);
    await refused({ file, at: { ...at, observations: at.observations + 4 } }, /observations \(\d+ bytes at \d+\) does not fit/);
    await refused({ file, at: { ...at, rewards: 1 } }, /overlaps/);
    const body = await vectorReply({ file, at });
    expect([body[0], body[1]]).toEqual([KIND.vector, VECTOR_SHARED]);
    const written = readFileSync(file);
    for (const name of SHARED_ARRAYS) expect(written.subarray(at[name], at[name] + bytes[name].length), name).toEqual(bytes[name]);
    expect(positionsIn(body, VECTOR_HEADER)).toEqual(positions);
    expect(body.length).toBe(VECTOR_HEADER + 4 * positions.length);
    rmSync(folder, { recursive: true });
  });

  it('ends when its input ends', async () => {
    client = new Client();
    client.json(HELLO);
    await client.replyJson();
    expect(await client.close()).toBe(0);
    client = new Client();
  });
});
