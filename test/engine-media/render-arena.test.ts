/**
 * A rendition's renders are written in turn into the two halves of one block (render/render-arena.ts):
 * a render never writes over the last one, which the playlist cache still answers with. Its first
 * render is not: a rendition rendered once holds no block.
 */
import { describe, expect, it } from 'vitest';
import { RenderArena } from '../../engine-container/src/render/render-arena';

const write = (arena: RenderArena, text: string): Buffer => {
  const out = arena.take(text.length);
  out.write(text, 'latin1');
  return out;
};

describe('a render arena', () => {
  it('writes a first render where Node pools small buffers: a rendition rendered once holds no block', () => {
    const first = write(new RenderArena(), 'a'.repeat(100));
    expect(first.buffer.byteLength).toBe(Buffer.poolSize);
  });

  it('writes each render after the first where the last one is not', () => {
    const arena = new RenderArena();
    const first = write(arena, 'a'.repeat(100));
    const second = write(arena, 'b'.repeat(100));
    const third = write(arena, 'c'.repeat(100));
    expect(first.toString('latin1')).toBe('a'.repeat(100));
    expect(second.toString('latin1')).toBe('b'.repeat(100));
    expect(third.buffer).toBe(second.buffer);
    const fourth = write(arena, 'd'.repeat(100));
    expect(third.toString('latin1')).toBe('c'.repeat(100));
    expect(fourth.byteOffset).toBe(second.byteOffset);
  });

  it('takes the same half again when the render just taken was given back', () => {
    const arena = new RenderArena();
    write(arena, 'first'.repeat(20));
    const kept = write(arena, 'a'.repeat(100));
    write(arena, 'x'.repeat(100));
    arena.giveBack();
    const next = write(arena, 'b'.repeat(100));
    expect(kept.toString('latin1')).toBe('a'.repeat(100));
    expect(next.byteOffset).not.toBe(kept.byteOffset);
  });

  it('never writes again in memory it released: bytes a response still holds stay as they were', () => {
    const arena = new RenderArena();
    const held = write(arena, 'a'.repeat(100));
    arena.release();
    const later = [write(arena, 'b'.repeat(100)), write(arena, 'c'.repeat(100))];
    expect(held.toString('latin1')).toBe('a'.repeat(100));
    for (const b of later) expect(b.buffer).not.toBe(held.buffer);
  });

  it('grows for a render longer than a half, keeping the last render where it was', () => {
    const arena = new RenderArena();
    const short = write(arena, 'a'.repeat(100));
    const long = write(arena, 'b'.repeat(10_000));
    expect(short.toString('latin1')).toBe('a'.repeat(100));
    expect(long.toString('latin1')).toBe('b'.repeat(10_000));
    expect(write(arena, 'c'.repeat(10_000)).buffer).toBe(long.buffer);
    expect(long.toString('latin1')).toBe('b'.repeat(10_000));
  });
});
