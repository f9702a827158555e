/**
 * The `advice` message, written where the advice is decided: on an inference worker under load,
 * which hands the main thread a frame to send instead of an object to copy back and encode (the
 * structured clone of an advice and its encoding were a tenth of the main thread's time).
 */
import { CODECS } from './codec.js';
import type { Encoding, PlayedModel, RequestId, ServerMessage } from './protocol.js';
import type { Advice, DecideResult } from './decide.js';

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

/**
 * The advice message as the client's frame: text for JSON, bytes for MessagePack in a buffer of
 * their own (msgpackr writes into a shared one, which a postMessage would copy whole), so that
 * the worker can transfer it.
 */
export function encodeAdvice(reply: AdviceReply, advice: Advice): string | Uint8Array {
  const frame = CODECS[reply.encoding].encode(adviceMessage(reply, advice));
  return typeof frame === 'string' ? frame : Uint8Array.prototype.slice.call(frame);
}

/** The buffers of a batch's MessagePack frames, to transfer rather than copy. */
export function frameBuffers(results: readonly DecideResult[]): ArrayBuffer[] {
  const buffers: ArrayBuffer[] = [];
  for (const result of results) if (result.ok && result.frame instanceof Uint8Array) buffers.push(result.frame.buffer as ArrayBuffer);
  return buffers;
}
