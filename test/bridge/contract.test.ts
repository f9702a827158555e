// The environment contract (test/env/envContract.ts) on the bridge the Python package plays
// through: its AEC session over the real process, reset and step as binary frames (bridge/protocol.ts).
import { KIND, STATUS } from '../../bridge/protocol.js';
import { OBSERVATION_SIZE } from '../../env/gym/observation.js';
import { type ContractStep, envContract } from '../env/envContract.js';
import { Client, HELLO } from './client.js';

/** An AEC state frame ('A') as the contract reads it; an error reply throws its message. */
function stateOf(body: Buffer, players: number): ContractStep {
  if (body[0] === KIND.json) throw new Error(String((JSON.parse(body.subarray(1).toString()) as { message?: unknown }).message));
  const status = body.readUInt8(1);
  const rewardsAt = 8;
  const observationAt = rewardsAt + 4 * players;
  const idsAt = observationAt + 4 * OBSERVATION_SIZE;
  const legalCount = body.readUInt16LE(4);
  const floats = (at: number, n: number) => new Float32Array(body.buffer.slice(body.byteOffset + at, body.byteOffset + at + 4 * n));
  const ongoing = status === STATUS.ongoing;
  return {
    seat: ongoing ? body.readInt8(2) : -1,
    legalIds: ongoing ? Array.from({ length: legalCount }, (_, i) => body.readInt16LE(idsAt + 2 * i)) : [],
    ...(ongoing ? { observation: floats(observationAt, OBSERVATION_SIZE) } : {}),
    rewards: floats(rewardsAt, players),
    status: ongoing ? 'ongoing' : status === STATUS.terminated ? 'terminated' : 'truncated',
  };
}

envContract({
  name: 'the bridge (AEC)',
  async make(options) {
    const client = new Client();
    client.json(HELLO);
    await client.replyJson();
    client.json({ type: 'make', kind: 'aec', env: options });
    const made = await client.replyJson();
    if (made.type !== 'made') throw new Error(`the bridge refused the options: ${JSON.stringify(made)}`);
    const players = options.players ?? 2;
    const frame = (kind: number, value: number, flag = 0) => {
      const body = Buffer.alloc(8);
      body.writeUInt8(kind, 0);
      body.writeUInt8(flag, 1);
      body.writeInt32LE(value, 4);
      return body;
    };
    return {
      reset: async (seed) => {
        client.send(frame(KIND.reset, seed, 1));
        return stateOf(await client.reply(), players);
      },
      step: async (action) => {
        client.send(frame(KIND.step, action));
        return stateOf(await client.reply(), players);
      },
      close: async () => {
        await client.close();
      },
    };
  },
});
