/**
 * Typed arrays that grow, for what a merge of many results keeps per result or per execution:
 * eight bytes a number at most, and a quarter more room at a time, so what is held past the last
 * value stays small.
 */

export function grownSize(size: number): number {
  return Math.ceil(size * 1.25) + 64;
}

/** `to` holding `from`'s values first. */
export function grown<T extends { set(array: ArrayLike<number>): void }>(from: ArrayLike<number>, to: T): T {
  to.set(from);
  return to;
}

/** Numbers pushed one by one into a Float64Array. */
export class NumberBuffer {
  private values = new Float64Array(16);
  private size = 0;

  push(value: number): void {
    if (this.size === this.values.length) this.values = grown(this.values, new Float64Array(grownSize(this.size)));
    this.values[this.size++] = value;
  }

  get length(): number {
    return this.size;
  }

  /** The values, as a plain array (for a computation over all of them once they are in). */
  toArray(): number[] {
    return Array.from(this.values.subarray(0, this.size));
  }
}
