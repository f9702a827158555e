// An inference worker thread: loads the served agents, then decides the batches it is sent.
import { parentPort, workerData } from 'node:worker_threads';
import { agentFor, decideBatch } from './decide.js';
import type { WorkerReply, WorkerRequest, WorkerSetup } from './pool.js';
import { framesInOneBuffer } from './adviceReply.js';

const port = parentPort;
if (!port) throw new Error('inferenceWorker.js runs as a worker thread');
const post = (reply: WorkerReply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);
try {
  await Promise.all((workerData as WorkerSetup).preload.map((played) => agentFor(played)));
  port.on('message', (message: WorkerRequest) => {
    if ('load' in message) {
      agentFor(message.agent).then(
        () => post({ loaded: message.load }),
        (error: Error) => post({ loaded: message.load, error: error.message }),
      );
      return;
    }
    decideBatch(message.requests).then(
      (decided) => {
        const { results, transfer } = framesInOneBuffer(decided);
        post({ batch: message.batch, results }, transfer);
      },
      (error: Error) =>
        post({ batch: message.batch, results: message.requests.map(() => ({ ok: false, code: 'internal', message: error.message })) }),
    );
  });
  post({ ready: true });
} catch (error) {
  post({ fatal: error instanceof Error ? error.message : String(error) });
}
