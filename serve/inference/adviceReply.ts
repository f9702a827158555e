/**
 * The `advice` message, written where the advice is decided: on an inference worker under load,
 * which hands the main thread a frame to send instead of an object to copy back and encode (the
 * structured clone of an advice and its encoding were a tenth of the main thread's time).
 */
import { CODECS } from '../protocol/codec.js';
import type { Encoding, PlayedModel, RequestId, ServerMessage } from '../protocol/protocol.js';
import type { AssafRisk } from '../../env/index.js';
import type { ScoreKind } from '../../agents/registry.js';
import type { ErrorCode } from '../protocol/errors.js';
import type { AdvisedMove, LegalAction, RankedAction } from '../protocol/protocol.js';
import type { WinChance } from './winChance.js';

/** The advice on a position, as decided (serve/inference/decide.ts) and sent (`advice`). */
export interface Advice {
  readonly seat: number;
  readonly phase: 'turn' | 'draw' | 'afterDraw';
  /** The suggestion: the agent's pick unless the moves played out rate another better beyond the noise. */
  readonly pick: LegalAction;
  /** What the agent alone plays. */
  readonly agentPick: LegalAction;
  readonly actions: RankedAction[];
  readonly legal: LegalAction[];
  /** Absent when the request asked for no outlook. */
  readonly moves?: AdvisedMove[];
  /** The worlds each move was played out in (absent with `moves`). */
  readonly worlds?: number;
  readonly scores: ScoreKind;
  readonly value: number | null;
  readonly assaf: AssafRisk | null;
  readonly win: WinChance | null;
  readonly winReason: string | null;
}

export type DecideResult =
  | { readonly ok: true; readonly action: number; readonly advice?: Advice; readonly frame?: string | Uint8Array }
  | { readonly ok: false; readonly code: ErrorCode; readonly message: string; readonly field?: string };

/** What the reply needs beyond the advice: the request's id, the agent asked and the model it played, the client's encoding. */
export interface AdviceReply {
  readonly id: RequestId;
  readonly agent: string;
  readonly model: PlayedModel | null;
  readonly encoding: Encoding;
}

export function adviceMessage({ id, agent, model }: AdviceReply, advice: Advice): ServerMessage {
  return {
    type: 'advice',
    id,
    agent,
    model,
    seat: advice.seat,
    phase: advice.phase,
    pick: advice.pick,
    agentPick: advice.agentPick,
    actions: advice.actions,
    legal: advice.legal,
    scores: advice.scores,
    value: advice.value,
    assaf: advice.assaf,
    // Absent, not null, when not asked for (MessagePack would write an undefined as nil).
    ...(advice.moves ? { moves: advice.moves, worlds: advice.worlds } : {}),
    win: advice.win,
    winReason: advice.winReason,
  };
}

/** The advice message as the client's frame: text for JSON, bytes for MessagePack (msgpackr's own slice: safe to keep). */
export function encodeAdvice(reply: AdviceReply, advice: Advice): string | Uint8Array {
  return CODECS[reply.encoding].encode(adviceMessage(reply, advice));
}

/**
 * A batch's results for a worker to post, its MessagePack frames copied into one buffer of
 * their own to transfer (each frame is a slice of msgpackr's shared buffer, which a postMessage
 * would copy whole; a buffer per frame costs an allocation and a transfer each).
 */
export function framesInOneBuffer(results: DecideResult[]): { results: DecideResult[]; transfer: ArrayBuffer[] } {
  let bytes = 0;
  for (const result of results) if (result.ok && result.frame instanceof Uint8Array) bytes += result.frame.byteLength;
  if (bytes === 0) return { results, transfer: [] };
  const buffer = new ArrayBuffer(bytes);
  let offset = 0;
  const moved = results.map((result): DecideResult => {
    if (!result.ok || !(result.frame instanceof Uint8Array)) return result;
    const frame = new Uint8Array(buffer, offset, result.frame.byteLength);
    frame.set(result.frame);
    offset += frame.byteLength;
    return { ...result, frame };
  });
  return { results: moved, transfer: [buffer] };
}
