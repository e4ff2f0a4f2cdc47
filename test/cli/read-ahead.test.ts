import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Result } from '../../src/core/errors.js';
import { readTextFileSync, type SourceFile } from '../../src/files/bounded-read.js';
import { readTextFiles } from '../../src/files/read-ahead.js';

// A large folder is read with worker threads reading ahead (`readTextFiles`): whatever the files
// hold, and whatever sits where the walk saw a file, the answers must be exactly those of reading
// each file on this thread, in the files' order.

const kind = { maxBytes: 200, noun: 'a role file', holds: 'markdown text' };
const dir = mkdtempSync(join(tmpdir(), 'roleflow-read-ahead-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Options = NonNullable<Parameters<typeof readTextFiles>[2]>;

async function readAll(sources: readonly SourceFile[], threads: number, options: Options = {}): Promise<Result<string>[]> {
  const all: Result<string>[] = [];
  for await (const batch of readTextFiles(sources, kind, { minFiles: 1, threads, ...options })) all.push(...batch);
  return all;
}

/** Files a worker takes: a whole regular file the walk saw, with at least one byte and within the limit. */
const takenByWorkers = (sources: readonly SourceFile[], sizes: (number | undefined)[]) =>
  sources.filter((s, i) => s.seenAsFile === true && sizes[i] !== undefined && sizes[i]! > 0 && sizes[i]! <= kind.maxBytes).length;

const onThisThread = (sources: readonly SourceFile[]) => sources.map((source) => readTextFileSync(source, kind));

describe('reading many files with worker threads reading ahead', () => {
  // Every kind of answer, among enough files to make several batches of 512, taken in turn by two workers.
  const folder = join(dir, 'many');
  mkdirSync(folder);
  const sources: SourceFile[] = [];
  const sizes: (number | undefined)[] = [];
  const add = (name: string, content: Uint8Array | undefined, seenAsFile = true) => {
    const abs = join(folder, name);
    if (content !== undefined) writeFileSync(abs, content);
    sources.push({ abs, file: `roles/${name}`, seenAsFile });
    sizes.push(content?.length);
  };
  for (let i = 0; i < 1300; i++) add(`r${i}.md`, Buffer.from(`---\nname: r${i}\n---\n${'é'.repeat(i % 90)}\n`));
  add('empty.md', Buffer.alloc(0));
  add('at-limit.md', Buffer.from('x'.repeat(200)));
  add('over-limit.md', Buffer.from('x'.repeat(201)));
  add('bom.md', Buffer.from([0xef, 0xbb, 0xbf, 0x61]));
  add('latin1.md', Buffer.from([0x61, 0xe9, 0x62]));
  add('nul.md', Buffer.from('a\0b'));
  add('gone.md', undefined);
  add('not-seen.md', Buffer.from('read the general way'), false);
  mkdirSync(join(folder, 'folder.md'));
  add('folder.md', undefined);
  if (process.platform !== 'win32') {
    execFileSync('mkfifo', [join(folder, 'pipe.md')]);
    add('pipe.md', undefined);
  }
  for (let i = 1300; i < 1400; i++) add(`r${i}.md`, Buffer.from(`---\nname: r${i}\n---\n`));

  it('gives each file its text or refusal, in order, as reading it on this thread does, with one worker or two', async () => {
    const expected = onThisThread(sources);
    // The refusals are there, and located: the comparison is not of empty lists.
    expect(expected.filter((r) => !r.ok).map((r) => (r.ok ? '' : r.issues[0]!.message))).toEqual([
      'file is too large (201 bytes): a role file may hold at most 200 bytes',
      'binary file (not valid UTF-8): a role file is markdown text',
      'binary file (contains a NUL byte): a role file is markdown text',
      'cannot read the file (ENOENT)',
      'cannot read the file (it is a folder)',
      ...(process.platform !== 'win32' ? ['cannot read the file (not a regular file)'] : []),
    ]);
    for (const threads of [1, 2]) {
      const stats = { fromWorkers: 0 };
      expect(await readAll(sources, threads, { stats })).toEqual(expected);
      // The workers did the reading: every whole file within the limit came from them.
      expect(stats.fromWorkers).toBe(takenByWorkers(sources, sizes));
      expect(stats.fromWorkers).toBeGreaterThan(1300);
    }
  });

  it('reads here whatever a failed worker did not hand over: one that cannot start, stops half-way, or sends the wrong batch', async () => {
    const expected = onThisThread(sources);
    const failing = {
      'throws at once': 'throw new Error("no")',
      // Hands over its first batch with every file left to the main thread, then ends.
      'stops after one batch': `const { parentPort, workerData } = require('node:worker_threads');
        const ends = new Int32Array(workerData.batchFiles).fill(-1);
        parentPort.postMessage({ index: workerData.first, bytes: new ArrayBuffer(0), ends }, [ends.buffer]);`,
      'sends the wrong batch': `const { parentPort, workerData } = require('node:worker_threads');
        parentPort.postMessage({ index: workerData.first + 7, bytes: new ArrayBuffer(0), ends: new Int32Array(workerData.batchFiles).fill(-1) });
        setInterval(() => {}, 1000);`,
    };
    for (const [why, workerSource] of Object.entries(failing)) {
      const stats = { fromWorkers: 0 };
      expect(await readAll(sources, 2, { workerSource, stats }), why).toEqual(expected);
      expect(stats.fromWorkers, why).toBe(0);
    }
  });

  it('waits for the reader when it is far ahead, and still hands over every file in order', async () => {
    expect(await readAll(sources, 2, { maxBytesInFlight: 1 })).toEqual(onThisThread(sources));
  });

  it('ends its workers when the reader stops early, even ones waiting for room', async () => {
    // Each worker is a thread of this process (Linux lists them in /proc/self/task); a thread
    // ended by an earlier test may take a moment to go.
    if (!existsSync('/proc/self/task')) return;
    const threads = () => readdirSync('/proc/self/task').length;
    const settled = async (): Promise<number> => {
      for (let last = -1, now = threads(); ; last = now, now = threads()) {
        if (now === last) return now;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const before = await settled();
    const taken: Result<string>[] = [];
    // Batches of 100 files, and room for one batch each: both workers hand one over, then wait.
    for await (const batch of readTextFiles(sources, kind, { minFiles: 1, threads: 2, batchFiles: 100, maxBytesInFlight: 1 })) {
      taken.push(...batch);
      expect(threads()).toBe(before + 2);
      break;
    }
    expect(taken).toEqual(onThisThread(sources.slice(0, 100)));
    // The loop ends once both are ended: no thread is left behind.
    expect(await settled()).toBe(before);
  });

  it('reads any bytes as this thread does, across batches and workers', async () => {
    const piece = fc.oneof(
      fc.uint8Array({ maxLength: 80 }),
      fc.constantFrom([0xef, 0xbb, 0xbf], [0xef, 0xbf, 0xbd], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0xf0, 0x9f, 0x98], [0xff], [0x00], [0xc3, 0xa9]).map((b) => Uint8Array.from(b)),
      fc.string({ unit: 'binary', maxLength: 60 }).map((s) => new TextEncoder().encode(s)),
    );
    const file = fc.array(piece, { maxLength: 6 }).map((pieces) => Buffer.concat(pieces));
    let round = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(file, { minLength: 1, maxLength: 30 }), fc.constantFrom(1, 2), fc.integer({ min: 1, max: 7 }), async (files, threads, batchFiles) => {
        const at = join(dir, `any-${round++}`);
        mkdirSync(at);
        const any = files.map((content, i) => {
          writeFileSync(join(at, `${i}.md`), content);
          return { abs: join(at, `${i}.md`), file: `${i}.md`, seenAsFile: true };
        });
        const stats = { fromWorkers: 0 };
        expect(await readAll(any, threads, { batchFiles, maxBytesInFlight: 64, stats })).toEqual(onThisThread(any));
        expect(stats.fromWorkers).toBe(takenByWorkers(any, files.map((f) => f.length)));
      }),
      { numRuns: 40 },
    );
  });
});
