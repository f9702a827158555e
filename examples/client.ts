// A complete client of `yaniv serve` in TypeScript, on the package's typed client
// (`yaniv-arena/client`; here, inside the repository, by its path): it connects, creates a table
// against the strong bot, and plays the whole game by asking the advisor what to play;
// `playWithAFriend` shows a table two connections share (an invite, a guest seat, a bot in the rest),
// and the host playing again with the same friend (create_table with follows).
//   npm start                       # in one terminal: the server
//   node dist/examples/client.js    # in another (or: node dist/examples/client.js ws://HOST:PORT/)
// In a project of your own: `npm install yaniv-arena ws`, then
//   import { YanivClient } from 'yaniv-arena/client';
import WebSocket from 'ws';
import { type Msg, YanivClient } from '../client/index.js';

export async function playOneGame(url = 'ws://127.0.0.1:8080/', log: (line: string) => void = console.log): Promise<Msg<'game_over'>> {
  // Node 22 and browsers have a WebSocket class of their own; Node 20 takes the `ws` package's.
  const client = await YanivClient.connect(url, { WebSocket, client: 'examples/client.ts' });
  log(`connected to ${url}: agents ${client.welcome?.agents.map((a) => a.name).join(', ')}`);
  client.onMessage((message) => {
    if (message.type === 'event' && message.actor !== message.seat) log(`  seat ${message.actor}: ${message.text}`);
    else if (message.type === 'round_end') log(`round ${message.round}: ${message.outcome}, totals ${JSON.stringify(message.totals)}`);
  });
  const table = await client.createTable({ seats: ['client', 'strong'], rules: { eliminationLimit: 50 } });
  log(`table ${table.table}: you are seat 0 against strong`);

  // On each of our moves, ask the advisor (the default agent) what to play, and play its pick. This
  // client reads only the pick: `outlook: false` spares the server the moves played out (several times the work).
  const result = await client.playOut(table.table, async (state) => {
    const advice = await client.advise({ table: state.table, outlook: false });
    log(`you: ${advice.pick.text}${advice.assaf ? ` (Assaf risk ${(100 * advice.assaf.risk).toFixed(0)}%)` : ''}`);
    return advice.pick.action;
  });
  log(`game over: seat ${result.winner} wins with totals ${JSON.stringify(result.totals)}; seed ${result.seed}`);
  client.close();
  return result;
}

/**
 * A table with a friend: one connection creates it with a guest seat, another joins with the
 * invite code (each on its own device in real life), the creator starts it with a bot in the rest,
 * and each plays only its own seat with its own advice; then the host plays again with the same
 * friend (`follows`): the friend is told `next_table` with its seat there. Returns both games' ends, for each.
 */
export async function playWithAFriend(url = 'ws://127.0.0.1:8080/'): Promise<Msg<'game_over'>[]> {
  const host = await YanivClient.connect(url, { WebSocket, client: 'examples/client.ts (host)' });
  const table = await host.createTable({ seats: ['client', 'guest', 'strong'], rules: { eliminationLimit: 50 } });
  // The invite names the table: a joiner connects to /?table=ID so a load balancer routes it to the table's process.
  const code = table.invite?.code ?? '';
  const friend = await YanivClient.connect(`${url}?table=${table.table}`, { WebSocket, client: 'examples/client.ts (friend)' });
  const joined = await friend.joinTable({ code, name: 'Friend' });
  await host.startTable({ table: table.table });
  const byAdvice = (client: YanivClient) => async (state: Msg<'state'>) =>
    (await client.advise({ table: state.table, outlook: false })).pick.action;
  const results = await Promise.all([host.playOut(table.table, byAdvice(host)), friend.playOut(joined.table, byAdvice(friend))]);
  // Play again with the same friend: `follows` takes each guest still here to the same seat at the new table (told next_table).
  const told = friend.next('next_table');
  const again = await host.createTable({ seats: ['client', 'guest', 'strong'], rules: { eliminationLimit: 50 }, follows: table.table });
  const next = await told;
  await host.startTable({ table: again.table });
  results.push(...(await Promise.all([host.playOut(again.table, byAdvice(host)), friend.playOut(next.table, byAdvice(friend))])));
  host.close();
  friend.close();
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  playOneGame(process.argv[2]).catch((error: Error) => {
    console.error(`client: ${error.message}`);
    process.exit(1);
  });
}
