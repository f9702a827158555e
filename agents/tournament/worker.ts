// A tournament worker thread: plays its share of the schedule and posts each result.
import { parentPort, workerData } from 'node:worker_threads';
import type { WorkerMessage, WorkerTask } from './dispatch.js';
import { playScheduled } from './play.js';

const task = workerData as WorkerTask;
const post = (message: WorkerMessage) => parentPort?.postMessage(message);
try {
  await playScheduled(task.config, task.games, (index, result) => post({ index, result }));
} catch (error) {
  post(error instanceof Error ? { error: error.message, name: error.name } : { error: String(error), name: 'Error' });
}
