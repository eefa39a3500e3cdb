/** Byte-level framing of a child's output: bounded lines and a bounded tail. */

import type { OdEventBody } from "../contract/events.ts";

export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;
export const DEFAULT_STDERR_TAIL_BYTES = 64 * 1024;

export type Frame = { kind: "line"; text: string } | { kind: "too-large"; bytes: number } | { kind: "event"; body: OdEventBody };

/**
 * Splits a byte stream into lines. Lines are decoded only once complete, so a
 * UTF-8 sequence split across chunks survives; CRLF is handled; an unterminated
 * last line is flushed. A line longer than `maxLineBytes` is dropped while it is
 * read (memory stays bounded) and reported as one `too-large` frame.
 */
export async function* frameLines(stream: AsyncIterable<Uint8Array>, maxLineBytes = DEFAULT_MAX_LINE_BYTES): AsyncGenerator<Frame> {
  for await (const frames of frameChunks(stream, maxLineBytes)) yield* frames;
}

/**
 * `frameLines`, one array per chunk read: the lines each chunk completed (a chunk that ends
 * none gives nothing). A fast agent's chunk holds a dozen lines or more, and the stages after
 * this take them as one array instead of one generator step each.
 */
export async function* frameChunks(stream: AsyncIterable<Uint8Array>, maxLineBytes = DEFAULT_MAX_LINE_BYTES): AsyncGenerator<Frame[]> {
  const decoder = new TextDecoder();
  let parts: Uint8Array[] = [];
  let size = 0;
  let dropping = false;

  const take = (): Frame => {
    const frame: Frame = dropping
      ? { kind: "too-large", bytes: size }
      : { kind: "line", text: stripCr(decoder.decode(concat(parts, size))) };
    parts = [];
    size = 0;
    dropping = false;
    return frame;
  };

  for await (const chunk of stream) {
    const frames: Frame[] = [];
    let start = 0;
    while (start <= chunk.length) {
      const nl = chunk.indexOf(10, start);
      const end = nl === -1 ? chunk.length : nl;
      const length = end - start;
      if (!dropping && size + length > maxLineBytes) {
        dropping = true;
        parts = [];
      }
      // A piece kept across chunks is copied: the chunk's buffer is not ours to hold.
      if (!dropping && length > 0) parts.push(nl === -1 ? chunk.slice(start, end) : chunk.subarray(start, end));
      size += length;
      if (nl === -1) break;
      frames.push(take());
      start = nl + 1;
    }
    if (frames.length) yield frames;
  }
  if (size > 0 || dropping) yield [take()];
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(size);
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

function stripCr(s: string): string {
  return s.endsWith("\r") ? s.slice(0, -1) : s;
}

/** Keeps the last `limit` bytes written to it; for stderr, which is diagnostics only. */
export class TailBuffer {
  private chunks: Uint8Array[] = [];
  private size = 0;
  constructor(private readonly limit = DEFAULT_STDERR_TAIL_BYTES) {}

  push(chunk: Uint8Array): void {
    if (chunk.length >= this.limit) {
      this.chunks = [chunk.slice(chunk.length - this.limit)];
      this.size = this.limit;
      return;
    }
    this.chunks.push(chunk.slice());
    this.size += chunk.length;
    while (this.size - this.chunks[0]!.length >= this.limit) this.size -= this.chunks.shift()!.length;
  }

  text(): string {
    const all = concat(this.chunks, this.size);
    const cut = all.length > this.limit ? all.subarray(all.length - this.limit) : all;
    return new TextDecoder().decode(cut);
  }
}
