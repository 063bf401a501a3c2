/**
 * Where a live rendition's renders are written: one block of memory in two halves used in turn, so a
 * render never overwrites the bytes of the render before it, which the playlist cache still answers
 * with. A new ArrayBuffer per render was V8's work, not ours: at 10,000 channels their allocation,
 * external-memory accounting and sweeping blocked requests for up to 230 ms and started a mark-compact
 * every 2–3 s (docs/benchmarks.md, fifth pass). A response that could not hand its bytes to the kernel
 * at once keeps reading them (a slow reader, a pipelined request): release() then gives the arena new
 * memory for its next render, and the old block stays with the response and the cache until both let go.
 */
const EMPTY = Buffer.alloc(0);

export class RenderArena {
  private memory: Buffer = EMPTY;
  /** The half the last render taken was written to. */
  private current = 1;

  /** `length` bytes to write a render into: the half the last render is not in. */
  take(length: number): Buffer {
    const half = this.memory.length >>> 1;
    if (length > half) {
      // Room to grow: a live playlist's length moves by a few lines from render to render.
      this.memory = Buffer.allocUnsafeSlow(2 * (Math.ceil(length * 1.25) + 256));
      this.current = 0;
      return this.memory.subarray(0, length);
    }
    this.current ^= 1;
    const at = this.current * half;
    return this.memory.subarray(at, at + length);
  }

  /** The render just taken was not used (it equalled the last one, which stays): its half is free again. */
  giveBack(): void {
    this.current ^= 1;
  }

  /** Bytes in this arena may still be read after now: nothing more is written in its memory. */
  release(): void {
    this.memory = EMPTY;
  }
}
