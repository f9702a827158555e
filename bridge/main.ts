// `node dist/bridge/main.js`: the bridge for Python (python/yaniv_arena). It speaks the bridge
// protocol (protocol.ts) on standard input and output; standard output carries frames only, so
// anything a library logs goes to standard error.
import { serve } from './server.js';

for (const method of ['log', 'info', 'debug'] as const) console[method] = console.error;

await serve(0, 1);
