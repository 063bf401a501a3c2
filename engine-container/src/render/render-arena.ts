/**
 * Where a live rendition's renders are written: one block of memory in two halves used in turn, so a
 * render never overwrites the bytes of the render before it, which the playlist cache still answers
 * with. A new ArrayBuffer per render was V8's work, not ours: at 10,000 channels their allocation,
 * external-memory accounting and sweeping blocked requests for up to 230 ms and started a mark-compact
 * every 2–3 s (docs/benchmarks-history-2.md, fifth pass). A response that could not hand its bytes to
 * the kernel at once keeps reading them (a slow reader, a pipelined request): release() then gives the
 * arena new memory for its next render, and the old block stays with the response and the cache until
 * both let go.
 */
const EMPTY = Buffer.alloc(0);

export class RenderArena {
  private memory: Buffer = EMPTY;
  /** The half the last render taken was written to. */
  private current = 1;
  /** Has the rendition rendered before? Its first render is not written here (take). */
  private rendered = false;

  /**
   * `length` bytes to write a render into: the half the last render is not in. A rendition's first
   * render is written where Node pools small buffers instead: a block pays for itself from the second
   * render on, and a rendition rendered once (every channel as it starts, one nobody plays) never
   * holds one. Allocating 100,000 blocks took start-up at 100,000 channels from 22 to 35 s.
   */
  take(length: number): Buffer {
    if (!this.rendered) {
      this.rendered = true;
      return Buffer.allocUnsafe(length);
    }
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

  /**
   * The render just taken was not used (it equalled the last one, which stays): its half is free again.
   * After a first render there is no block yet: the next take allocates one and starts at its first half.
   */
  giveBack(): void {
    this.current ^= 1;
  }

  /** Bytes in this arena may still be read after now: nothing more is written in its memory. */
  release(): void {
    this.memory = EMPTY;
  }
}
