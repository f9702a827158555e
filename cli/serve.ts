// `yaniv serve`: the bot server (serve/), and `yaniv schema`: the JSON Schema of its protocol.
import { Command, InvalidArgumentError, Option } from 'commander';
import pino from 'pino';
import { AgentSpecError, parseAgentSpec } from '../agents/registry.js';
import { DEFAULT_AGENTS, type ServerOptionsInput, protocolJsonSchema, startServer } from '../serve/index.js';
import { type RuleFlags, readRuleSelection, ruleOptions } from './ruleOptions.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function wholeNumber(flag: string, min: number, max: number) {
  return (text: string): number => {
    const n = Number(text);
    if (!/^\d+$/.test(text.trim()) || n < min || n > max)
      throw new InvalidArgumentError(`${flag} must be a whole number from ${min} to ${max} (got ${JSON.stringify(text)})`);
    return n;
  };
}

function agentList(text: string): string[] {
  const specs = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (specs.length === 0) throw new InvalidArgumentError('--agents: name at least one agent');
  for (const spec of specs) {
    try {
      parseAgentSpec(spec);
    } catch (error) {
      if (error instanceof AgentSpecError) throw new InvalidArgumentError(`--agents: ${error.message}`);
      throw error;
    }
  }
  return specs;
}

function addressList(text: string): string[] {
  const addresses = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = addresses.find((a) => !/^[^\s:]+:\d{1,5}$|^\[[0-9a-fA-F:.]+\]:\d{1,5}$/.test(a));
  if (addresses.length === 0 || bad !== undefined)
    throw new InvalidArgumentError(`--peers: give HOST:PORT addresses, comma-separated (got ${JSON.stringify(bad ?? text)})`);
  return addresses;
}

export function serveCommand(): Command {
  const command = new Command('serve')
    .description('Serve the bots over WebSocket: opponents at tables and advice on positions (serve/PROTOCOL.md)')
    .addOption(new Option('--host <host>', 'interface to listen on').default('127.0.0.1'))
    .addOption(new Option('--port <n>', 'TCP port (0: any free one)').default(8080).argParser(wholeNumber('--port', 0, 65535)))
    .addOption(
      new Option('--agents <list>', 'agents served, the default first')
        .default(DEFAULT_AGENTS, DEFAULT_AGENTS.join(','))
        .argParser(agentList),
    )
    .addOption(new Option('--token <token>', 'require this bearer token (Authorization: Bearer, or ?token=)').env('YANIV_TOKEN'))
    .addOption(new Option('--allow-origin <origin...>', 'browser origins allowed besides the server\'s own ("*": any)'))
    .addOption(new Option('--max-tables <n>', 'tables on the server').default(1000).argParser(wholeNumber('--max-tables', 1, 1_000_000)))
    .addOption(new Option('--workers <n>', 'inference worker threads (0: main thread)').argParser(wholeNumber('--workers', 0, 64)))
    .addOption(new Option('--think-ms <n>', 'default bot think delay').argParser(wholeNumber('--think-ms', 0, 10_000)))
    .addOption(
      new Option('--max-turns <n>', "whole turns after which a table's game stops unfinished (as yaniv bench --max-turns)").argParser(
        wholeNumber('--max-turns', 1, Number.MAX_SAFE_INTEGER),
      ),
    )
    .addOption(
      new Option(
        '--peers <list>',
        'behind deploy/nginx: every server address of the upstream, comma-separated as nginx writes them (table ids are minted to hash to this process)',
      ).argParser(addressList),
    )
    .addOption(new Option('--advertise <host:port>', "this process's address among --peers (default: --host:--port)"))
    .addOption(new Option('--log-level <level>', 'log level (JSON lines on standard error)').choices(LOG_LEVELS).default('info'));
  // The rules of tables whose create_table names neither preset nor rules.
  return ruleOptions(command).action(
    async (
      flags: RuleFlags & {
        host: string;
        port: number;
        agents: string[];
        token?: string;
        allowOrigin?: string[];
        maxTables: number;
        workers?: number;
        thinkMs?: number;
        maxTurns?: number;
        peers?: string[];
        advertise?: string;
        logLevel: string;
      },
    ) => {
      const logger = pino({ level: flags.logLevel, base: { service: 'yaniv-serve' } }, pino.destination(2));
      const options: ServerOptionsInput = {
        host: flags.host,
        port: flags.port,
        agents: flags.agents,
        token: flags.token ?? null,
        allowOrigins: flags.allowOrigin ?? [],
        maxTables: flags.maxTables,
        ...readRuleSelection(flags),
        ...(flags.workers !== undefined ? { workers: flags.workers } : {}),
        ...(flags.thinkMs !== undefined ? { thinkMs: flags.thinkMs } : {}),
        ...(flags.maxTurns !== undefined ? { maxTurns: flags.maxTurns } : {}),
        ...(flags.peers !== undefined ? { peers: flags.peers } : {}),
        ...(flags.advertise !== undefined ? { advertise: flags.advertise } : {}),
      };
      const server = await startServer(options, { logger }).catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'EADDRINUSE' || error.code === 'EACCES' || error.code === 'EADDRNOTAVAIL') {
          throw new InvalidArgumentError(`cannot listen on ${flags.host}:${flags.port} (${error.code}): pick another --host or --port`);
        }
        // The server's own option checks (such as --advertise among --peers) are the user's to fix.
        if (error instanceof RangeError) throw new InvalidArgumentError(error.message);
        throw error;
      });
      const health = server.pageUrl + 'health';
      const token = flags.token === undefined ? '' : ' (add ?token=… : --token is set)';
      process.stdout.write(
        `yaniv serve: play the bots in your browser at ${server.pageUrl}${token}\n` +
          `yaniv serve: ${server.url} (agents ${flags.agents.join(', ')}; health ${health}; Ctrl-C stops)\n`,
      );
      let stopping = false;
      const stop = (signal: string) => {
        if (stopping) return;
        stopping = true;
        logger.info({ event: 'signal', signal }, 'shutting down');
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
    },
  );
}

export function schemaCommand(): Command {
  return new Command('schema').description('Print the JSON Schema of the serve protocol (serve/protocol.schema.json)').action(() => {
    process.stdout.write(JSON.stringify(protocolJsonSchema(), null, 2) + '\n');
  });
}
