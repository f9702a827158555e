// The evaluation worker thread: plays each request's match-ups and posts the results.
import { parentPort } from 'node:worker_threads';
import { type EvaluationRequest, evaluate } from './evaluation.js';

const port = parentPort;
if (port === null) throw new Error('evalWorker.js runs as a worker thread');
port.on('message', (request: EvaluationRequest) => {
  evaluate(request).then(
    (results) => port.postMessage({ results }),
    (error: unknown) => port.postMessage({ error: error instanceof Error ? error.message : String(error) }),
  );
});
