/**
 * The bridge protocol (`yaniv-bridge/3`): what the Python package (python/yaniv_arena/_bridge.py)
 * and the stdio server say to each other. Every message is a frame: a u32 little-endian body
 * length, then the body, whose first byte is its kind. Setup and errors are JSON (kind 'J');
 * the hot path is raw little-endian binary, laid out below and nowhere else (the Python side
 * mirrors these offsets in its reader, and its tests pin them).
 *
 * Requests: 'J' + JSON (hello, make, render); 'r' reset; 's' step; 'o' observe a seat.
 * Replies: 'J' + JSON (hello, made, render, error); 'A' AEC state; 'G' single-agent state;
 * 'V' vector state; 'O' an observation.
 */
import { z } from 'zod';
import { MAX_PLAYERS } from '../env/rules/rules.js';

export const BRIDGE_PROTOCOL = 'yaniv-bridge/3';

export const FRAME_HEADER = 4;
export const KIND = {
  json: 0x4a, // 'J'
  reset: 0x72, // 'r'
  step: 0x73, // 's'
  observe: 0x6f, // 'o'
  aec: 0x41, // 'A'
  single: 0x47, // 'G'
  vector: 0x56, // 'V'
  observation: 0x4f, // 'O'
} as const;

/**
 * Request bodies. reset: kind u8, hasSeed u8, 2 pad, seed i32 (8 bytes).
 * step: kind u8, 3 pad, then one i32 action per game (1 for aec and single).
 * observe: kind u8, seat u8.
 */
export const RESET_BODY = 8;
export const STEP_ACTIONS_AT = 4;

/**
 * AEC state ('A'): kind u8, status u8, current i8, actor i8, legalCount u16, observer u8,
 * roundEnded u8; then rewards f32[players] (this step's, by seat), the observation of `observer`
 * f32[OBSERVATION_SIZE], the legal ids i16[legalCount].
 */
export const AEC_REWARDS_AT = 8;

/**
 * Single-agent state ('G'): kind u8, status u8, seat u8, illegal u8 (1: the episode ended on the
 * learner's illegal action), legalCount u16, 2 pad; reward f32 (the learner's, summed since its
 * last step); the learner's observation f32[OBSERVATION_SIZE]; the legal ids i16[legalCount].
 */
export const SINGLE_REWARD_AT = 8;
export const SINGLE_OBSERVATION_AT = 12;

/**
 * Vector state ('V') of n games: kind u8, flags u8 (VECTOR_SHARED: the per-game arrays are in the
 * shared file, not here), 2 pad, totalLegal u32, finals u32, 4 pad; then, without VECTOR_SHARED,
 * the SHARED_ARRAYS in their order: observations f32[n × OBSERVATION_SIZE], rewards
 * f32[n × MAX_PLAYERS], actorRewards f32[n], legalCounts i16[n], currentPlayers i8[n], terminated
 * u8[n], truncated u8[n], padding to 4 bytes; then `finals` game indices i32 and their final
 * observations f32[finals × OBSERVATION_SIZE]; then the legal positions i32[totalLegal], game
 * after game: game × ACTION_COUNT + action id, the game counted over the whole batch (firstGame
 * on), so that they index the batch's flat N × ACTION_COUNT mask as they come.
 */
export const VECTOR_HEADER = 16;
/**
 * The per-game arrays of a vector state, by their VecEnv names, and actorRewards: the reward of the
 * seat that took the step (the Gymnasium reward; 0 after a reset). The make request's `shared` names
 * a file the client has mapped into its memory (on Linux, under /dev/shm) and where in it each of
 * these arrays' rows for this worker's first game go: the session writes them there before each
 * 'V' reply, instead of into the reply (one copy fewer, no parsing on the client, and a reply
 * small enough for one pipe read).
 */
export const SHARED_ARRAYS = [
  'observations',
  'rewards',
  'actorRewards',
  'legalCounts',
  'currentPlayers',
  'terminated',
  'truncated',
] as const;
export type SharedArray = (typeof SHARED_ARRAYS)[number];
export const VECTOR_SHARED = 1;
/** A worker's games, and the batch index its first game may have: legal positions stay within an i32. */
export const MAX_WORKER_GAMES = 1 << 16;
export const MAX_FIRST_GAME = (1 << 20) - 1;
export const REWARD_SLOTS = MAX_PLAYERS;

/** Status bytes: the episode goes on, ended by the rules, or cut by the turn cap. */
export const STATUS = { ongoing: 0, terminated: 1, truncated: 2 } as const;

export const align4 = (bytes: number): number => (bytes + 3) & ~3;

const versions = {
  protocol: z.string(),
  observation: z.string(),
  actions: z.string(),
};

const agentSpecs = z.union([z.string(), z.array(z.string().nullable())]);

/** The JSON requests. `env` is checked by the env's own option schema (episode.ts), not here. */
export const requestSchema = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('hello'), ...versions }),
  z.strictObject({
    type: z.literal('make'),
    kind: z.enum(['aec', 'single', 'vector']),
    env: z.record(z.string(), z.unknown()),
    /** single: the learner's seat or "rotate"; opponents as agent specs; what an illegal action does. */
    seat: z.union([z.int().min(0), z.literal('rotate')]).optional(),
    opponents: agentSpecs.optional(),
    illegal: z.enum(['raise', 'penalty']).optional(),
    illegalPenalty: z.number().nonnegative().optional(),
    /** vector: games in this worker, and the index of its first game in the whole batch (seeds). */
    num: z.int().min(1).max(MAX_WORKER_GAMES).optional(),
    firstGame: z.int().min(0).max(MAX_FIRST_GAME).optional(),
    /** vector: the file to write the per-game arrays to (VECTOR_SHARED), and the byte offset of this worker's first game in each. */
    shared: z
      .strictObject({
        file: z.string().min(1),
        at: z.strictObject(Object.fromEntries(SHARED_ARRAYS.map((name) => [name, z.int().min(0)])) as Record<SharedArray, z.ZodInt>),
      })
      .optional(),
  }),
  z.strictObject({
    type: z.literal('render'),
    seat: z
      .int()
      .min(0)
      .max(MAX_PLAYERS - 1)
      .optional(),
  }),
]);

export type Request = z.infer<typeof requestSchema>;
export type MakeRequest = Extract<Request, { type: 'make' }>;

/** What kind of problem an error reply reports: the Python side maps each to an exception. */
export const ERROR_KINDS = ['protocol', 'version', 'options', 'illegal', 'state', 'internal'] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

export class BridgeError extends Error {
  override name = 'BridgeError';
  constructor(
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message);
  }
}
