/**
 * The client's shared file (VECTOR_SHARED in protocol.ts): byte views of the env's buffers written
 * at the offsets the client chose, before each reply. Views that lie end to end in the file go in
 * one positioned writev, so one worker of a batch writes all its arrays with one system call.
 */
import { closeSync, fstatSync, openSync, writeSync, writevSync } from 'node:fs';
import { BridgeError } from './protocol.js';

export interface Region {
  readonly name: string;
  readonly at: number;
  readonly bytes: Uint8Array;
}

interface Run {
  readonly at: number;
  readonly parts: Uint8Array[];
  readonly bytes: number;
}

export class SharedFile {
  private readonly fd: number;
  private readonly runs: Run[] = [];

  /** Opens the file the client mapped and checks that every region fits in it, none overlapping another. */
  constructor(file: string, regions: readonly Region[]) {
    this.fd = openShared(file);
    try {
      this.plan(
        file,
        fstatSync(this.fd).size,
        [...regions].sort((a, b) => a.at - b.at),
      );
    } catch (error) {
      closeSync(this.fd);
      throw error;
    }
  }

  /** Groups the sorted regions into runs that lie end to end. */
  private plan(file: string, size: number, sorted: readonly Region[]): void {
    let last: Region | null = null;
    for (const region of sorted) {
      const bytes = region.bytes.byteLength;
      if (region.at + bytes > size)
        throw new BridgeError(
          'options',
          `the shared file ${file} holds ${size} bytes: ${region.name} (${bytes} bytes at ${region.at}) does not fit`,
        );
      if (last !== null && region.at < last.at + last.bytes.byteLength)
        throw new BridgeError(
          'options',
          `the shared file's ${region.name} (at ${region.at}) overlaps ${last.name} (${last.bytes.byteLength} bytes at ${last.at})`,
        );
      const run = this.runs.at(-1);
      if (run !== undefined && run.at + run.bytes === region.at)
        this.runs[this.runs.length - 1] = { at: run.at, parts: [...run.parts, region.bytes], bytes: run.bytes + bytes };
      else this.runs.push({ at: region.at, parts: [region.bytes], bytes });
      last = region;
    }
  }

  write(): void {
    for (const run of this.runs) {
      const written = writevSync(this.fd, run.parts, run.at);
      if (written < run.bytes) writeRest(this.fd, Buffer.concat(run.parts), written, run.at);
    }
  }
}

/** The rest of a short positioned write (a regular file writes all at once unless it is full). */
function writeRest(fd: number, bytes: Buffer, from: number, at: number): void {
  for (let done = from; done < bytes.length;) {
    const written = writeSync(fd, bytes, done, bytes.length - done, at + done);
    if (written === 0) throw new Error(`the shared file took no more bytes at ${at + done}`);
    done += written;
  }
}

/** Opens the client's shared file for writing, or says why it cannot. */
function openShared(file: string): number {
  try {
    return openSync(file, 'r+');
  } catch (error) {
    throw new BridgeError('options', `cannot open the shared file ${file}: ${(error as Error).message}`);
  }
}
