// `yaniv serve`: the bot server (serve/), and `yaniv schema`: the JSON Schema of its protocol.
import { Command, InvalidArgumentError } from 'commander';
import pino from 'pino';
import { schemaFlags } from '../support/schemaFlags.js';
import { SERVE_FLAGS, protocolJsonSchema, serveProcessSchema, serverOptionsSchema, startServer } from '../serve/index.js';
import { type RuleFlags, readRuleSelection, ruleOptions } from './ruleOptions.js';
import { addSchemaOptions, readSchemaOptions, schemaOptionValues } from './schemaOptions.js';

const SERVER_FLAGS = schemaFlags(serverOptionsSchema, SERVE_FLAGS);
const PROCESS_FLAGS = schemaFlags(serveProcessSchema);

export function serveCommand(): Command {
  const command = new Command('serve').description(
    'Serve the bots over WebSocket: opponents at tables and advice on positions (serve/PROTOCOL.md)',
  );
  addSchemaOptions(command, [...SERVER_FLAGS, ...PROCESS_FLAGS]);
  // The rules of tables whose create_table names neither preset nor rules.
  return ruleOptions(command).action(async (rules: RuleFlags, cmd: Command) => {
    const values = schemaOptionValues(cmd, [...SERVER_FLAGS, ...PROCESS_FLAGS]);
    const flags = readSchemaOptions(serveProcessSchema, PROCESS_FLAGS, values);
    const options = readSchemaOptions(serverOptionsSchema, SERVER_FLAGS, { ...values, ...readRuleSelection(rules) });
    const logger = pino({ level: flags.logLevel, base: { service: 'yaniv-serve' } }, pino.destination(2));
    const server = await startServer(options, { logger }).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE' || error.code === 'EACCES' || error.code === 'EADDRNOTAVAIL') {
        throw new InvalidArgumentError(`cannot listen on ${options.host}:${options.port} (${error.code}): pick another --host or --port`);
      }
      // The server's own checks across options (--advertise among --peers) are the user's to fix.
      if (error instanceof RangeError) throw new InvalidArgumentError(error.message);
      throw error;
    });
    const health = server.pageUrl + 'health';
    const token = options.token === null ? '' : ' (add ?token=… : --token is set)';
    process.stdout.write(
      `yaniv serve: play the bots in your browser at ${server.pageUrl}${token}\n` +
        `yaniv serve: ${server.url} (agents ${options.agents.join(', ')}; health ${health}; Ctrl-C stops)\n`,
    );
    let stopping = false;
    const stop = (signal: string) => {
      if (stopping) return;
      stopping = true;
      logger.info({ event: 'signal', signal }, 'shutting down');
      // The bound holds even if something hangs: past it (and a margin to flush the logs) the process exits.
      setTimeout(() => {
        logger.error({ event: 'shutdown_cut' }, 'shutdown took longer than --shutdown-ms and a margin: exiting without finishing it');
        logger.flush();
        process.exit(1);
      }, server.options.shutdownMs + 2000).unref();
      server.close().then(
        () => {
          logger.flush();
          process.exit(0);
        },
        (error: Error) => {
          logger.error({ event: 'shutdown_failed', err: error.message }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
}

export function schemaCommand(): Command {
  return new Command('schema').description('Print the JSON Schema of the serve protocol (serve/protocol.schema.json)').action(() => {
    process.stdout.write(JSON.stringify(protocolJsonSchema(), null, 2) + '\n');
  });
}
