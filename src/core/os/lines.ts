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
  const framer = new LineFramer(maxLineBytes);
  for await (const chunk of stream) {
    const frames = framer.push(chunk);
    if (frames.length) yield frames;
  }
  const last = framer.end();
  if (last.length) yield last;
}

/**
 * The framing of `frameChunks` as a step per chunk, for a reading loop that does the I/O itself
 * (an agent's stdout: reading, framing and the wait for the next turn in one loop, where three
 * stacked generators cost three steps per chunk).
 *
 * A chunk is decoded once (a decode per line cost more than the line's JSON.parse), and cut at
 * its newlines in both forms: a newline byte is never part of another character, so the n-th
 * one in the bytes is the n-th in the text. The bytes count a line's size, the text is the line.
 */
export class LineFramer {
  private readonly decoder = new TextDecoder();
  // A chunk that starts and ends on a character's edge is decoded whole: `{ stream: true }` costs
  // ten times as much (Bun), and an agent's JSONL chunk is ASCII-ended nearly always. Only the first
  // chunk drops a byte-order mark, as a stream's start does; a U+FEFF later is text.
  private readonly whole = new TextDecoder("utf-8", { ignoreBOM: true });
  /** The last chunk ended inside a character (or none came yet): `decoder` holds or may hold its start. */
  private split = true;
  /** The text of the line the next chunk goes on with (none kept once it is too large). */
  private pending = "";
  private size = 0;
  private dropping = false;

  constructor(private readonly maxLineBytes = DEFAULT_MAX_LINE_BYTES) {}

  /** The lines `chunk` completed, in order (none when it ended none). */
  push(chunk: Uint8Array): Frame[] {
    const frames: Frame[] = [];
    if (!chunk.length) return frames;
    const ends = chunk[chunk.length - 1]! < 0x80;
    const text = this.split || !ends ? this.decoder.decode(chunk, { stream: true }) : this.whole.decode(chunk);
    this.split = !ends;
    for (let start = 0, at = 0; ; ) {
      const nl = chunk.indexOf(10, start);
      this.size += (nl === -1 ? chunk.length : nl) - start;
      if (!this.dropping && this.size > this.maxLineBytes) {
        this.dropping = true;
        this.pending = "";
      }
      const cut = nl === -1 ? text.length : text.indexOf("\n", at);
      if (nl === -1) {
        if (!this.dropping) this.pending += text.slice(at);
        break;
      }
      // A CR before the newline is cut here, in the chunk's text (a line's own check cost more than its slice).
      const cr = cut > at && text.charCodeAt(cut - 1) === 13 ? 1 : 0;
      frames.push(this.take(this.dropping ? "" : text.slice(at, cut - cr)));
      start = nl + 1;
      at = cut + 1;
    }
    return frames;
  }

  /** At the stream's end: its unterminated last line (or its report, when too large), if any. */
  end(): Frame[] {
    const rest = this.decoder.decode();
    return this.size > 0 || this.dropping ? [this.take(this.dropping ? "" : rest)] : [];
  }

  private take(rest: string): Frame {
    const { pending } = this;
    const frame: Frame = this.dropping
      ? { kind: "too-large", bytes: this.size }
      : { kind: "line", text: pending ? stripCr(pending + rest) : rest };
    this.pending = "";
    this.size = 0;
    this.dropping = false;
    return frame;
  }
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
