// `yaniv backend [--backend auto|node|wasm|cpu]`: which tfjs backend runs here, and why not another.
import { Command } from 'commander';
import { type BackendChoice, backendOption } from '../nn/backendChoice.js';

export function backendCommand(): Command {
  return new Command('backend')
    .description('Initialise the tfjs backend the training and serving commands would use, and print it')
    .addOption(backendOption())
    .action(async (options: { backend: BackendChoice }) => {
      // tfjs loads only for the commands that use it.
      const { describeBackend, initBackend } = await import('../nn/backend.js');
      console.log(describeBackend(await initBackend(options.backend)));
    });
}
