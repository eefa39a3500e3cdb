import { Readable } from "node:stream";
import { errorResponse, type Id } from "./jsonrpc.ts";

/**
 * The most one JSON-RPC message may take on od's stdio faces (`od mcp`, `od acp`): a line longer
 * than this is skipped, never parsed, and answered with an error. Under both SDKs' own limits
 * (MCP's 10 MiB read buffer, ACP's 32 MiB message), so neither ever meets a line it would choke on.
 */
export const MAX_STDIO_LINE_BYTES = 8 * 1024 * 1024;
const LIMIT_MIB = MAX_STDIO_LINE_BYTES / 1024 / 1024;

/** How much of a skipped line's start and end is kept, to find the request's id there. */
const EDGE_BYTES = 256;
const NEWLINE = 10;

/** A line that was skipped: its size, and the id of the request it carried when its first or last members name one. */
export interface Skipped {
  bytes: number;
  id: Id;
}

/**
 * Cuts over-long lines out of a byte stream of JSON lines. `push` returns the whole lines a chunk
 * completes, several to a piece but never more than `max` bytes (and its newline) in one, so a
 * reader whose buffer holds that much never overflows. A longer line is dropped as it is read:
 * past the limit its bytes are only counted, up to its newline, so memory and CPU stay bounded
 * however long it is, and `skipped` is told when it ends. Pure: the caller does the I/O.
 */
export class LineBound {
  private held: Uint8Array[] = []; // the current line so far, while within the limit (copies)
  private size = 0;
  private dropping = false;
  private head = new Uint8Array(0);
  private tail = new Uint8Array(0);

  constructor(
    private readonly skipped: (line: Skipped) => void,
    private readonly max = MAX_STDIO_LINE_BYTES,
  ) {}

  push(chunk: Uint8Array): Uint8Array[] {
    const out = new Batch(this.max);
    for (let start = 0; start < chunk.length; ) {
      const nl = chunk.indexOf(NEWLINE, start);
      const piece = chunk.subarray(start, nl === -1 ? chunk.length : nl);
      if (!this.dropping && this.size + piece.length > this.max) this.startDropping(piece);
      else if (this.dropping) this.keepTail(piece);
      this.size += piece.length;
      if (nl === -1) {
        if (!this.dropping) this.held.push(Buffer.from(piece)); // a copy: the chunk is not ours to keep
        break;
      }
      if (this.dropping) this.endDropped();
      else out.add([...this.held, chunk.subarray(start, nl + 1)], this.size + 1);
      this.held = [];
      this.size = 0;
      start = nl + 1;
    }
    return out.pieces();
  }

  /** At the end of the stream: an unterminated last line, as it is (or its report, when too long). */
  end(): Uint8Array[] {
    if (this.dropping) this.endDropped();
    const last = this.held.length ? [concat(this.held)] : [];
    this.held = [];
    this.size = 0;
    return last;
  }

  private startDropping(piece: Uint8Array): void {
    this.head = Buffer.from(concat([...this.held, piece]).subarray(0, EDGE_BYTES));
    this.tail = new Uint8Array(0);
    this.held = [];
    this.dropping = true;
    this.keepTail(piece);
  }

  private keepTail(piece: Uint8Array): void {
    const tail = concat([this.tail, piece.subarray(Math.max(0, piece.length - EDGE_BYTES))]);
    this.tail = Buffer.from(tail.subarray(Math.max(0, tail.length - EDGE_BYTES)));
  }

  private endDropped(): void {
    const text = new TextDecoder();
    this.skipped({ bytes: this.size, id: requestId(text.decode(this.head), text.decode(this.tail)) });
    this.dropping = false;
    this.head = this.tail = new Uint8Array(0);
  }
}

/** Whole lines gathered into pieces of at most `max` bytes (a line alone may be a byte over: its newline). */
class Batch {
  private readonly done: Uint8Array[] = [];
  private parts: Uint8Array[] = [];
  private size = 0;

  constructor(private readonly max: number) {}

  add(line: Uint8Array[], bytes: number): void {
    if (this.size && this.size + bytes > this.max) this.flush();
    this.parts.push(...line);
    this.size += bytes;
  }

  pieces(): Uint8Array[] {
    this.flush();
    return this.done;
  }

  private flush(): void {
    if (this.parts.length) this.done.push(concat(this.parts));
    this.parts = [];
    this.size = 0;
  }
}

/** `boundLines` over a stream: the lines `LineBound` lets through, as they come. */
export async function* boundLines(
  input: AsyncIterable<Uint8Array>,
  skipped: (line: Skipped) => void,
  max = MAX_STDIO_LINE_BYTES,
): AsyncGenerator<Uint8Array> {
  const bound = new LineBound(skipped, max);
  for await (const chunk of input) yield* bound.push(chunk);
  yield* bound.end();
}

/**
 * A stdio face's stdin with its lines bounded, as the Node stream both SDKs' transports read (ACP's
 * through `Readable.toWeb`): each skipped line is answered on `stdout` with `skippedError` (beside
 * the SDK's own messages, each a whole write) and said through `warn` (stderr).
 */
export function boundedStdin(
  warn: (message: string) => void,
  stdin: AsyncIterable<Uint8Array> = process.stdin,
  stdout: Pick<NodeJS.WritableStream, "write"> = process.stdout,
): Readable {
  const answer = (line: Skipped) => {
    warn(`skipped a message of ${line.bytes} bytes: over the ${LIMIT_MIB} MiB limit of od's stdio`);
    stdout.write(skippedError(line));
  };
  return Readable.from(boundLines(stdin, answer), { objectMode: false });
}

const SCALAR = String.raw`(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|"(?:[^"\\]|\\.)*"|null|true|false)`;
const FIRST_MEMBER = new RegExp(String.raw`^\s*"((?:[^"\\]|\\.)*)"\s*:\s*${SCALAR}\s*,`);
const LAST_MEMBER = new RegExp(String.raw`[{,]\s*"((?:[^"\\]|\\.)*)"\s*:\s*${SCALAR}\s*$`);

/**
 * The id of the request a skipped line carried, when the line's own first or last members say it
 * (`{"jsonrpc":"2.0","id":7,…` as ACP's SDK writes, `…,"jsonrpc":"2.0","id":7}` as MCP's does):
 * walks the scalar members at either end of the outer object. Else null, as JSON-RPC answers a
 * message whose id it could not read.
 */
export function requestId(head: string, tail: string): Id {
  let after = /^\s*\{/.test(head) ? head.replace(/^\s*\{/, "") : "";
  for (let m = FIRST_MEMBER.exec(after); m; m = FIRST_MEMBER.exec(after)) {
    if (m[1] === "id") return asId(m[2]!);
    after = after.slice(m[0].length);
  }
  let before = /\}\s*$/.test(tail) ? tail.replace(/\}\s*$/, "") : "";
  for (let m = LAST_MEMBER.exec(before); m; m = LAST_MEMBER.exec(before)) {
    if (m[1] === "id") return asId(m[2]!);
    if (before[m.index] === "{") break; // the first member: the object's start
    before = before.slice(0, m.index);
  }
  return null;
}

function asId(json: string): Id {
  const value: unknown = JSON.parse(json);
  return typeof value === "string" || (typeof value === "number" && Number.isInteger(value)) ? value : null;
}

/** The JSON-RPC error line that answers a skipped line: -32600, the request's id (or null), the limit named. */
export function skippedError(line: Skipped): string {
  const message = `Message of ${line.bytes} bytes is over the ${LIMIT_MIB} MiB limit of od's stdio; it was skipped`;
  return `${JSON.stringify(errorResponse(line.id, -32600, message))}\n`;
}

/** The parts as one Buffer (what Node's stream readers expect); a single part as it is, uncopied. */
function concat(parts: Uint8Array[]): Uint8Array {
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}
