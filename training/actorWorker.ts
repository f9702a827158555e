// An actor's worker thread: builds the Actor, then answers the learner's messages in order.
import { parentPort, workerData } from 'node:worker_threads';
import { Actor } from './actor.js';
import type { ActorInit, ActorMessage, LearnerMessage } from './messages.js';

const init = workerData as ActorInit;
const port = parentPort;
if (port === null) throw new Error('actorWorker.js runs as a worker thread');
const fail = (error: unknown) =>
  port.postMessage({
    type: 'error',
    actor: init.actor,
    message: error instanceof Error ? (error.stack ?? error.message) : String(error),
  } satisfies ActorMessage);
try {
  const { actor, backend } = await Actor.create(init, true);
  port.on('message', (message: LearnerMessage) => {
    try {
      const { replies, transfer } = actor.handle(message);
      for (const reply of replies) port.postMessage(reply, transfer);
      if (message.type === 'stop') port.close();
    } catch (error) {
      fail(error);
    }
  });
  port.postMessage({ type: 'ready', actor: init.actor, backend } satisfies ActorMessage);
} catch (error) {
  fail(error);
}
