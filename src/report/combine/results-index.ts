import { hash } from 'node:crypto';
import type { Transport } from '../../core/flows/index.js';
import { grown, grownSize } from '../../core/runs/growable.js';

/** What the index reads of a result as it goes by. */
export interface IndexedResult {
  id: string;
  file: string;
  line: number;
  transport: Transport;
}

/** Which results a merge keeps, in which order, and which earlier ones a kept one replaces. */
export interface MergeOrder {
  /** Entries kept, in the merged report's order (file, line, transport). */
  order: Int32Array;
  /** With --prefer-last: a kept entry → every entry of its test × transport, in the order given (itself last). */
  groups: Map<number, number[]>;
}

/**
 * The results of a merge indexed in 15 bytes each (typed arrays, no string per result), so that
 * 50,000 results from 50 reports never need to be in memory at once: a 32-bit hash of the test ×
 * transport, the test's file (interned: a suite has far fewer files than tests), line and
 * transport, and the report it came from. Entries are numbered as added; the caller keeps each
 * result where it can read it back by that number (`sameTest` tells two apart when hashes meet).
 */
export class ResultIndex {
  private size = 0;
  private keys = new Uint32Array(1024);
  private files = new Uint32Array(1024);
  private lines = new Uint32Array(1024);
  private transports = new Uint8Array(1024);
  private inputs = new Uint16Array(1024);
  private readonly fileNumbers = new Map<string, number>();

  get count(): number {
    return this.size;
  }

  /** The entry of `result`, from the report given `input`-th (0-based): its number. */
  add(result: IndexedResult, input: number): number {
    if (input >= MAX_INPUTS) throw new RangeError(`report merge reads at most ${MAX_INPUTS} reports at once`);
    if (this.size === this.keys.length) this.grow();
    const i = this.size++;
    let file = this.fileNumbers.get(result.file);
    if (file === undefined) this.fileNumbers.set(result.file, (file = this.fileNumbers.size));
    this.keys[i] = keyHash(result.id, result.transport);
    this.files[i] = file;
    this.lines[i] = result.line;
    this.transports[i] = result.transport === 'https' ? 0 : 1;
    this.inputs[i] = input;
    return i;
  }

  /** The report entry `i` came from (0-based). */
  inputOf(i: number): number {
    return this.inputs[i]!;
  }

  /**
   * The merge's order. A test × transport in two reports is an error naming both (`duplicate`:
   * the first entry that repeats an earlier one, as read) unless `preferLast`: then the last
   * report's result is kept and the group lists them all. Twice in one report is always an error.
   * `sameTest(a, b)`: whether entries a and b are the same test × transport (hashes may meet).
   */
  resolve(preferLast: boolean, sameTest: (a: number, b: number) => boolean): { ok: true; value: MergeOrder } | { ok: false; duplicate: [number, number] } {
    const n = this.size;
    const byKey = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => this.keys[a]! - this.keys[b]! || a - b);
    const dropped = new Uint8Array(n);
    const groups = new Map<number, number[]>();
    let firstRepeat: [number, number] | undefined;
    for (let start = 0; start < n; ) {
      let end = start + 1;
      while (end < n && this.keys[byKey[end]!] === this.keys[byKey[start]!]) end++;
      // Entries of one hash, in the order read; those of one test × transport form a group.
      let rest = Array.from(byKey.subarray(start, end));
      while (rest.length > 0) {
        const head = rest[0]!;
        const group = rest.filter((e) => e === head || sameTest(head, e));
        rest = rest.filter((e) => !group.includes(e));
        if (group.length === 1) continue;
        for (let k = 1; k < group.length; k++) {
          const repeat: [number, number] = [group[k - 1]!, group[k]!];
          const inOneReport = this.inputs[repeat[0]] === this.inputs[repeat[1]];
          if ((!preferLast || inOneReport) && (firstRepeat === undefined || repeat[1] < firstRepeat[1])) firstRepeat = repeat;
        }
        for (const e of group.slice(0, -1)) dropped[e] = 1;
        groups.set(group.at(-1)!, group);
      }
      start = end;
    }
    if (firstRepeat) return { ok: false, duplicate: firstRepeat };
    const fileRank = this.fileRanks();
    const kept = Int32Array.from({ length: n }, (_, i) => i).filter((i) => dropped[i] === 0);
    kept.sort((a, b) => fileRank[this.files[a]!]! - fileRank[this.files[b]!]! || this.lines[a]! - this.lines[b]! || this.transports[a]! - this.transports[b]! || a - b);
    return { ok: true, value: { order: kept, groups } };
  }

  /** Each file number's place when the file names are sorted (code-unit order). */
  private fileRanks(): Int32Array {
    const names = [...this.fileNumbers.keys()];
    const sorted = names.map((name, number) => ({ name, number })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const ranks = new Int32Array(names.length);
    sorted.forEach(({ number }, rank) => (ranks[number] = rank));
    return ranks;
  }

  private grow(): void {
    const size = grownSize(this.keys.length);
    this.keys = grown(this.keys, new Uint32Array(size));
    this.files = grown(this.files, new Uint32Array(size));
    this.lines = grown(this.lines, new Uint32Array(size));
    this.transports = grown(this.transports, new Uint8Array(size));
    this.inputs = grown(this.inputs, new Uint16Array(size));
  }
}

/** The reports one merge reads at most (their numbers are 16 bits). */
export const MAX_INPUTS = 65_535;

/** 32 bits of the SHA-1 of the test × transport. */
function keyHash(id: string, transport: string): number {
  return (hash('sha1', `${id}\u0000${transport}`, 'buffer') as Buffer).readUInt32BE(0);
}
