// The protocol's edge: the committed JSON Schema is the one the zod schemas generate, the
// MessagePack encoding is plain maps (golden bytes, read by an independent decoder), and the
// codecs and the message union refuse what is not a message with a named reason.
import { readFileSync } from 'node:fs';
import { decode } from '@msgpack/msgpack';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { RULE_LIMITS } from '../../../env/index.js';
import { CODECS } from '../../../serve/protocol/codec.js';
import { ProtocolError } from '../../../serve/protocol/errors.js';
import { protocolJsonSchema } from '../../../serve/protocol/protocol.js';
import { parseClientMessage } from '../../../serve/protocol/protocolEdge.js';

const SCHEMA_FILE = new URL('../../../serve/protocol.schema.json', import.meta.url);

describe('serve/protocol.schema.json', () => {
  it('is what `yaniv schema` generates from the zod schemas (run `node dist/cli/main.js schema > serve/protocol.schema.json` after a change)', () => {
    expect(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8'))).toEqual(protocolJsonSchema());
  });

  it("gives rule overrides every option's range, as the server, the page and the CLI (issue 39)", () => {
    // strict: false for the annotations the page reads (relevantWhen).
    const valid = new Ajv2020({ strict: false }).compile(protocolJsonSchema());
    const create = (rules: object) => ({ type: 'create_table', id: 1, seats: ['client', 'strong'], rules });
    expect(valid(create({ eliminationLimit: RULE_LIMITS.total, milestones: [[50, 25]] }))).toBe(true);
    for (const rules of [
      { eliminationLimit: 1e15 },
      { eliminationLimit: RULE_LIMITS.total + 1 },
      { assafPenalty: RULE_LIMITS.penalty + 1 },
      { yanivsToWin: RULE_LIMITS.yanivsToWin + 1 },
      { milestones: Array.from({ length: RULE_LIMITS.milestones + 1 }, (_, i) => [i + 1, 0]) },
      { slapdowns: true },
    ])
      expect(valid(create(rules)), JSON.stringify(rules).slice(0, 60)).toBe(false);
    // PROTOCOL.md says the ranges in words: the same numbers.
    const words = readFileSync(new URL('../../../serve/PROTOCOL.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    expect(words).toContain(
      `(\`eliminationLimit\` and the totals of \`milestones\` up to ${RULE_LIMITS.total}, the Assaf penalties up to ${RULE_LIMITS.penalty}, \`yanivsToWin\` up to ${RULE_LIMITS.yanivsToWin}, at most ${RULE_LIMITS.milestones} milestones`,
    );
  });
});

function refused(run: () => unknown): ProtocolError {
  try {
    run();
  } catch (error) {
    if (error instanceof ProtocolError) return error;
    throw error;
  }
  throw new Error('accepted');
}

describe('MessagePack frames', () => {
  it('are plain maps: golden bytes, read alike by an independent decoder', () => {
    const bytes = CODECS.msgpack.encode({ type: 'pong', id: 7, time: 0 }) as Buffer;
    expect(bytes.toString('hex')).toBe('de0003a474797065a4706f6e67a2696407a474696d6500');
    expect(decode(bytes)).toEqual({ type: 'pong', id: 7, time: 0 });
    const nested = {
      type: 'advice',
      id: 'a',
      actions: [{ action: 5, score: -4.5, cards: ['5S'] }],
      value: null,
      assaf: { risk: 0.25, samples: 200 },
    };
    expect(decode(CODECS.msgpack.encode(nested) as Buffer)).toEqual(nested);
  });

  it('decode back to the message, and refuse text frames, bad bytes, extensions and object internals', () => {
    expect(CODECS.msgpack.decode(CODECS.msgpack.encode({ type: 'ping', id: 1 }) as Buffer, true)).toEqual({ type: 'ping', id: 1 });
    expect(refused(() => CODECS.msgpack.decode(Buffer.from('{}'), false)).message).toMatch(/send binary frames/);
    expect(refused(() => CODECS.msgpack.decode(Buffer.from([0xc1]), true)).message).toMatch(/not a plain object|not valid MessagePack/);
    expect(refused(() => CODECS.msgpack.decode(Buffer.from([0xd6, 0xff, 0, 0, 0, 1]), true)).message).toMatch(/not a plain object/);
    // Nesting 50,000 deep overflowed the decoder's stack: "Maximum call stack size exceeded" (issue 15).
    for (const deep of [Buffer.alloc(50_000, 0x91), Buffer.concat([Buffer.alloc(50_000, 0x91), Buffer.from([0xc0])])])
      expect(refused(() => CODECS.msgpack.decode(deep, true)).message).toMatch(/^nested deeper than 16 levels/);
    const proto = Buffer.from([0x81, 0xa9, ...Buffer.from('__proto__'), 0x81, 0xa1, 0x78, 0x01]);
    expect(refused(() => CODECS.msgpack.decode(proto, true)).message).toMatch(/is not allowed/);
    // A timestamp inside a list inside an object: the refusal names where it is.
    const stamped = Buffer.concat([
      Buffer.from([0x81, 0xa4, ...Buffer.from('view'), 0x81, 0xa5, ...Buffer.from('known'), 0x92, 0x90]),
      Buffer.from([0xd6, 0xff, 0, 0, 0, 1]),
    ]);
    expect(refused(() => CODECS.msgpack.decode(stamped, true))).toMatchObject({
      field: 'view.known[1]',
      message: expect.stringMatching(/not a plain object/),
    });
  });

  it('encode each message into bytes of its own: a later encode leaves an earlier one intact', () => {
    const first = CODECS.msgpack.encode({ type: 'pong', id: 1 }) as Buffer;
    const copy = Buffer.from(first);
    for (let i = 0; i < 2_000; i++) CODECS.msgpack.encode({ type: 'pong', id: i, pad: 'x'.repeat(i % 300) });
    expect(first.equals(copy)).toBe(true);
    expect(decode(first)).toEqual({ type: 'pong', id: 1 });
  });
});

describe('JSON frames', () => {
  it('refuse binary frames, invalid JSON, deep nesting and object internals', () => {
    expect(refused(() => CODECS.json.decode(Buffer.from('{}'), true)).message).toMatch(/send text frames/);
    expect(refused(() => CODECS.json.decode(Buffer.from('{"type":'), false)).message).toMatch(/not valid JSON/);
    expect(refused(() => CODECS.json.decode(Buffer.from('['.repeat(20_000) + ']'.repeat(20_000)), false)).message).toMatch(
      /nested deeper than 16/,
    );
    expect(refused(() => CODECS.json.decode(Buffer.from('{"type":"hello","rules":{"__proto__":{"x":1}}}'), false))).toMatchObject({
      field: 'rules',
      message: expect.stringMatching(/"__proto__" is not allowed/),
    });
    expect(refused(() => CODECS.json.decode(Buffer.from('{"constructor":1}'), false)).message).toMatch(/"constructor" is not allowed/);
    expect(refused(() => CODECS.json.decode(Buffer.from('{"a":[{"b":[[[[[[[[[[[[[[1]]]]]]]]]]]]]]}]}'), false))).toMatchObject({
      field: 'a[0].b[0][0][0][0][0][0][0][0][0][0][0][0][0]',
      message: expect.stringMatching(/nested deeper than 16/),
    });
  });
});

describe('the message union', () => {
  it.each<[unknown, string, string | undefined, RegExp]>([
    [[], 'bad_message', undefined, /a message is an object/],
    [{ id: 1 }, 'bad_message', 'type', /must be one of the message types/],
    [{ type: 'launch', id: 1 }, 'unknown_type', 'type', /unknown message type "launch"; the types are hello, ping/],
    [{ type: 'hello', id: 1 }, 'bad_message', 'version', /\(missing\)/],
    [{ type: 'act', id: 1, table: 't', action: 1, counter: 2 ** 60 }, 'bad_message', 'counter', /must be an integer from 0/],
    [{ type: 'act', id: 1, table: 't', action: 5000, counter: 0 }, 'bad_message', 'action', /from 0 to 1408/],
    [{ type: 'ping', id: 1, extra: true }, 'bad_message', undefined, /unknown field "extra" in ping/],
    [{ type: 'ping', id: { a: 1 } }, 'bad_message', 'id', /string \(up to 64 characters\) or a non-negative integer/],
    [{ type: 'create_table', id: 1, seats: ['client'] }, 'bad_message', 'seats', /must list 2 to 8 seats/],
    [{ type: 'advise', id: 1 }, 'bad_message', undefined, /give exactly one of table, view or position/],
    [{ type: 'advise', id: 1, position: {} }, 'bad_message', 'seat', /needs the seat/],
    [{ type: 'advise', id: 1, view: { format: 'yaniv-view/1' } }, 'bad_message', 'view.players', /missing/],
  ])('%j → %s', (message, code, field, text) => {
    const error = refused(() => parseClientMessage(message));
    expect(error.code).toBe(code);
    expect(error.field).toBe(field);
    expect(error.message).toMatch(text);
  });
});
