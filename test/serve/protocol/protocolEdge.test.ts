// The server checks an advise's view in two steps (serve/protocol/protocolEdge.ts): its head as the message
// arrives, the rest where the advice is decided. Whatever the view, the two steps accept what the
// whole message's schema accepts, with the same value, and refuse the rest in the same words,
// naming the same field.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PRESET_NAMES, YanivEnv, playerView, randomLegalAction, seededRng } from '../../../env/index.js';
import { ProtocolError } from '../../../serve/protocol/errors.js';
import { parseClientMessage, parseClientMessageAtEdge, parseViewJson, viewJsonCheck } from '../../../serve/protocol/protocolEdge.js';
import { clientMessageAtEdgeSchema } from '../../../serve/protocol/protocol.js';
import { viewJsonSchema, viewToJson } from '../../../serve/protocol/viewJson.js';

function viewAfter(preset: string, players: number, seed: number, steps: number): Record<string, unknown> {
  const env = new YanivEnv({ players, preset, seed });
  let { info } = env.reset();
  const rng = seededRng(seed);
  for (let i = 0; i < steps && !env.done; i++) ({ info } = env.step(randomLegalAction(info.actionMask, rng)));
  if (env.done) ({ info } = env.reset());
  return { ...viewToJson(playerView(env.state, info.currentPlayer), preset, {}) };
}

type Outcome = { ok: true; value: unknown } | { ok: false; code: string; message: string; field: string | undefined };

function outcome(parse: () => unknown): Outcome {
  try {
    return { ok: true, value: parse() };
  } catch (error) {
    if (!(error instanceof ProtocolError)) throw error;
    return { ok: false, code: error.code, message: error.message, field: error.field };
  }
}

const KEYS = [...Object.keys(viewJsonSchema.shape), 'extra'];
/** A change to a view: a key set to any JSON value or removed, or an entry of one of its lists replaced. */
const edit = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), key: fc.constantFrom(...KEYS), value: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({ kind: fc.constant('drop' as const), key: fc.constantFrom(...KEYS) }),
  fc.record({
    kind: fc.constant('entry' as const),
    key: fc.constantFrom('hand', 'handSizes', 'known', 'pile', 'totals', 'active'),
    index: fc.nat(9),
    value: fc.oneof(fc.constantFrom('QS', 'JK', '1H', 12, -3, null), fc.jsonValue({ maxDepth: 1 })),
  }),
);

type Edit = typeof edit extends fc.Arbitrary<infer T> ? T : never;

function applyEdit(view: Record<string, unknown>, change: Edit): void {
  if (change.kind === 'set') view[change.key] = change.value;
  else if (change.kind === 'drop') delete view[change.key];
  else if (Array.isArray(view[change.key])) {
    const list = [...(view[change.key] as unknown[])];
    list[Math.min(change.index, list.length)] = change.value;
    view[change.key] = list;
  }
}

/** A view of a random position under any preset and table size, with up to `edits` changes. */
const editedView = (edits: number) =>
  fc
    .tuple(
      fc.constantFrom(...PRESET_NAMES),
      fc.integer({ min: 2, max: 8 }),
      fc.nat(10_000),
      fc.nat(60),
      fc.array(edit, { maxLength: edits }),
    )
    .map(([preset, players, seed, steps, changes]) => {
      const view = viewAfter(preset, players, seed, steps);
      for (const change of changes) applyEdit(view, change);
      return view;
    });

describe('the advise view checked in two steps', () => {
  it('accepts and refuses as the whole message does, in the same words', () => {
    const fields = new Set<string | undefined>();
    let accepted = 0;
    fc.assert(
      fc.property(editedView(3), (view) => {
        const message = { type: 'advise', id: 7, agent: 'strong', view };
        const whole = outcome(() => parseClientMessage(message));
        const twoSteps = outcome(() => {
          const head = parseClientMessageAtEdge(message);
          return { ...head, view: head.type === 'advise' ? parseViewJson(head.view) : undefined };
        });
        expect(twoSteps).toEqual(whole);
        if (whole.ok) accepted++;
        else fields.add(whole.field);
      }),
      { numRuns: 400, seed: 28 },
    );
    // Both sides of the property were met: views accepted, and refusals of many fields, head and rest.
    expect(accepted).toBeGreaterThan(20);
    expect(fields.size).toBeGreaterThan(10);
    expect(fields).toContain('view.players');
  });

  it("the view's compiled check accepts exactly what its schema accepts, with the same defaults", () => {
    let accepted = 0;
    fc.assert(
      fc.property(editedView(2), (view) => {
        const reference = viewJsonSchema.safeParse(view);
        const fast = structuredClone(view);
        expect(viewJsonCheck(fast)).toBe(reference.success);
        if (reference.success) expect(fast).toEqual(reference.data);
        if (reference.success) accepted++;
      }),
      { numRuns: 600, seed: 29 },
    );
    expect(accepted).toBeGreaterThan(50);
  });

  it('an advise at the edge: its compiled check and refinement accept exactly what zod accepts, with the same value', () => {
    const ADVISE_KEYS = ['type', 'id', 'agent', 'seed', 'outlook', 'table', 'seat', 'view', 'position', 'extra'];
    const value = fc.oneof(
      fc.constantFrom('advise', 'act', 'strong', '', 'x'.repeat(70), 0, -1, 3, 7, 8, 2 ** 31, 1.5, true, false, null, {}, []),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const change = fc.oneof(
      fc.record({ key: fc.constantFrom(...ADVISE_KEYS), value }),
      fc.record({ key: fc.constantFrom(...ADVISE_KEYS), value: fc.constant(undefined) }),
    );
    let accepted = 0;
    fc.assert(
      fc.property(fc.nat(10_000), fc.array(change, { maxLength: 3 }), (seed, changes) => {
        const message: Record<string, unknown> = {
          type: 'advise',
          id: 7,
          agent: 'strong',
          view: viewAfter('standard', 3, seed, seed % 40),
        };
        for (const { key, value: replacement } of changes) {
          if (replacement === undefined) delete message[key];
          else message[key] = replacement;
        }
        const reference = clientMessageAtEdgeSchema.safeParse(message);
        const fast = outcome(() => parseClientMessageAtEdge(structuredClone(message)));
        expect(fast.ok).toBe(reference.success);
        if (fast.ok && reference.success) {
          expect(fast.value).toEqual(reference.data);
          accepted++;
        }
      }),
      { numRuns: 800, seed: 30 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it('refuses a view that is not an object at the edge, naming it', () => {
    const refused = outcome(() => parseClientMessageAtEdge({ type: 'advise', id: 1, view: 'QS' }));
    expect(refused).toMatchObject({ ok: false, code: 'bad_message', field: 'view' });
    expect(refused).toEqual(outcome(() => parseClientMessage({ type: 'advise', id: 1, view: 'QS' })));
  });
});
