/**
 * The stored table record, `yaniv-table/1`: what rebuilds a table exactly (its settings and the
 * action ids played) and when it expires. One schema owns it: the table's settings type comes
 * from it, and a store that reads a table back (serve/tables/redisTableStore.ts) parses with it, so a
 * record written by another version or damaged is refused with its field named, never cast.
 */
import { z } from 'zod';
import { documentIssue } from '../../support/zod.js';
import { seatInfoSchema } from '../protocol/protocolParts.js';

export const TABLE_RECORD_FORMAT = 'yaniv-table/1';

export const tableSettingsSchema = z.strictObject({
  id: z.string().min(1),
  token: z.string().min(1),
  preset: z.string(),
  rules: z.record(z.string(), z.unknown()),
  seats: z.array(seatInfoSchema).min(1),
  seed: z.int(),
  thinkMs: z.int().min(0),
  moveDeadlineMs: z.int().min(0).nullable(),
  /** Whole turns after which the game stops unfinished (game_over with truncated: true). */
  maxTurns: z.int().min(1),
  /** The published model version each bot agent plays here, kept to the end of the game (none: as the server started). */
  models: z.record(z.string(), z.int()).optional(),
  /** A table with guest seats: its invite code and when it stops taking joins (ms since 1970). */
  invite: z.strictObject({ code: z.string().min(1), expiresAt: z.int() }).optional(),
  /** The guest seats someone joined: each seat's own token and its person's name. */
  guests: z.array(z.strictObject({ seat: z.int().min(0), token: z.string().min(1), name: z.string() })).optional(),
  /** The table waits in its lobby for its creator's start_table. */
  lobby: z.boolean().optional(),
});

export type TableSettings = z.output<typeof tableSettingsSchema>;

/** A list of action ids as stored: each followed by a comma ("12,7,1352,"). */
export function encodeMoves(moves: readonly number[]): string {
  let text = '';
  for (const id of moves) text += `${id},`;
  return text;
}

export function decodeMoves(text: string): number[] {
  if (text === '') return [];
  const ids = text.slice(0, -1).split(',').map(Number);
  if (!text.endsWith(',') || ids.some((id) => !Number.isInteger(id) || id < 0))
    throw new Error(`the stored moves are not a list of action ids: ${JSON.stringify(text.slice(0, 60))}`);
  return ids;
}

const json = z.string().transform((text, ctx) => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    ctx.addIssue({ code: 'custom', message: 'is not JSON' });
    return z.NEVER;
  }
});
const movesText = z.string().transform((text, ctx) => {
  try {
    return decodeMoves(text);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});
const millis = z.string().regex(/^\d+$/, { error: 'must be a time in ms' }).transform(Number);

/** A table record as a store keeps it in text fields (the Redis hash and moves string). */
export const storedTableSchema = z.strictObject({
  // A record without the field was written by the build before it, in this same layout: a rolling
  // upgrade resumes its tables.
  format: z.preprocess(
    (value) => (value === null || value === undefined || value === '' ? TABLE_RECORD_FORMAT : value),
    z.literal(TABLE_RECORD_FORMAT, { error: `must be ${TABLE_RECORD_FORMAT}` }),
  ),
  settings: json.pipe(tableSettingsSchema),
  moves: movesText,
  deadline: z.union([z.literal('').transform(() => null), millis]),
  expireAt: millis,
});

/** The stored record could not be read as a `yaniv-table/1` record. */
export class TableRecordError extends Error {
  override name = 'TableRecordError';
}

/** Parses a stored record; throws TableRecordError naming the field. */
export function parseStoredTable(
  fields: Readonly<Record<keyof z.input<typeof storedTableSchema>, string>>,
  id: string,
): z.output<typeof storedTableSchema> {
  const parsed = storedTableSchema.safeParse(fields, { reportInput: true });
  if (parsed.success) return parsed.data;
  const { field, problem } = documentIssue(parsed.error.issues[0]);
  throw new TableRecordError(
    `table ${id.slice(0, 64)} in the store is not a ${TABLE_RECORD_FORMAT} record: ${field || 'the record'} ${problem}`,
  );
}

/** A stored record's settings field alone (what a load checks a token or an invite against); throws TableRecordError. */
export function parseStoredSettings(text: string, id: string): TableSettings {
  const parsed = storedTableSchema.shape.settings.safeParse(text, { reportInput: true });
  if (parsed.success) return parsed.data;
  const { field, problem } = documentIssue(parsed.error.issues[0]);
  throw new TableRecordError(
    `table ${id.slice(0, 64)} in the store is not a ${TABLE_RECORD_FORMAT} record: settings${field ? `.${field}` : ''} ${problem}`,
  );
}
