// A complete client of `yaniv serve` in TypeScript (only the `ws` package): it connects, creates
// a table against the strong bot, and plays the whole game by asking the advisor what to play.
//   npm start                       # in one terminal: the server
//   node dist/examples/client.js    # in another (or: node dist/examples/client.js ws://HOST:PORT/)
import WebSocket from 'ws';

type Message = { type: string; id?: number; [key: string]: unknown };
interface Legal { action: number; text: string }
interface State { table: string; seat: number; counter: number; legal: Legal[] }

export async function playOneGame(url = 'ws://127.0.0.1:8080/', log: (line: string) => void = console.log): Promise<Message> {
  const ws = new WebSocket(url, 'yaniv.v1.json');
  let nextId = 1;
  const waiting = new Map<number, (reply: Message) => void>();
  const states: State[] = [];
  let wakeUp: () => void = () => undefined;
  let gameOver: Message | null = null;

  ws.on('message', (data) => {
    const message = JSON.parse((data as Buffer).toString()) as Message;
    if (message.id !== undefined && waiting.has(message.id)) {
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    } else if (message.type === 'state') {
      states.push(message as unknown as State);
    } else if (message.type === 'event' && message.actor !== message.seat) {
      log(`  seat ${String(message.actor)}: ${String(message.text)}`);
    } else if (message.type === 'round_end') {
      log(`round ${String(message.round)}: ${String(message.outcome)}, totals ${JSON.stringify(message.totals)}`);
    } else if (message.type === 'game_over') {
      gameOver = message;
    }
    wakeUp();
  });

  /** Sends a request and waits for the reply with its id. */
  const request = (message: Message): Promise<Message> => new Promise((resolve) => {
    const id = nextId++;
    waiting.set(id, resolve);
    ws.send(JSON.stringify({ ...message, id }));
  });
  const nextMessage = () => new Promise<void>((resolve) => { wakeUp = resolve; });

  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  const welcome = await request({ type: 'hello', version: 1, client: 'examples/client.ts' });
  log(`connected to ${url}: agents ${(welcome.agents as { name: string }[]).map((a) => a.name).join(', ')}`);
  const table = await request({ type: 'create_table', seats: ['client', 'strong'], rules: { eliminationLimit: 50 } });
  log(`table ${String(table.table)}: you are seat 0 against strong`);

  while (gameOver === null) {
    const state = states.at(-1);
    states.length = 0;
    if (!state || state.legal.length === 0) {
      await nextMessage();
      continue;
    }
    // Ask the advisor (the default agent) what to play here, and play its pick. This client reads
    // only the pick: `outlook: false` spares the server the moves played out (several times the work).
    const advice = await request({ type: 'advise', table: state.table, outlook: false });
    if (advice.type === 'error') throw new Error(String(advice.message));
    const pick = advice.pick as Legal;
    const risk = advice.assaf as { risk: number } | null;
    log(`you: ${pick.text}${risk ? ` (Assaf risk ${(100 * risk.risk).toFixed(0)}%)` : ''}`);
    const reply = await request({ type: 'act', table: state.table, action: pick.action, counter: state.counter });
    if (reply.type === 'error') throw new Error(String(reply.message));
  }
  const over = gameOver as Message;
  log(`game over: seat ${String(over.winner)} wins with totals ${JSON.stringify(over.totals)}; seed ${String(over.seed)}`);
  ws.close();
  return over;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  playOneGame(process.argv[2]).catch((error: Error) => {
    console.error(`client: ${error.message}`);
    process.exit(1);
  });
}
