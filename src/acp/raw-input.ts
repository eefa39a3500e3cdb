/**
 * A tool call's input as ACP's `rawInput`: always an object (ACP SDKs before 0.5 accept nothing
 * else, and reject the whole message otherwise), and bounded, since it goes out with every
 * tool_call and permission request.
 */

/** How long a rawInput's JSON may be before it is cut (a file's content is the usual culprit). */
export const RAW_INPUT_LIMIT = 16 * 1024;

/** What a cut rawInput carries besides the fields that fit: that it was cut, from how much, and which fields. */
export interface Truncated {
  /** The length of the whole input's JSON. */
  size: number;
  /** String fields kept, but only their beginning. */
  shortened: string[];
  /** Fields left out (too large, and not text that could be shortened). */
  omitted: string[];
  /** How many more fields were left out, past the names the note has room for. */
  more?: number;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const jsonLength = (v: unknown) => JSON.stringify(v)?.length ?? 0;
/** What the `_truncated` note costs at most, besides the names of the fields it lists; and the room for those names. */
const NOTE_ROOM = 96;
const NAMES_ROOM = 1024;
/** A string is shortened only when this much of it would be kept; less is left out. */
const MIN_KEPT = 32;

/**
 * `input` as ACP's rawInput: the agent's object itself while its JSON fits in `limit` characters
 * (anything else, e.g. a string, wrapped as `{ value }`); past it, a smaller object: the fields that
 * fit whole, in order, long string fields cut to the room left, the rest left out, and `_truncated`
 * saying so. Never a string, never cut JSON. Undefined for no input.
 */
export function rawInputOf(input: unknown, limit = RAW_INPUT_LIMIT): Record<string, unknown> | undefined {
  if (input === undefined) return undefined;
  const object = isRecord(input) ? input : { value: input };
  const size = jsonLength(object);
  if (size <= limit) return object;
  const note: Truncated = { size, shortened: [], omitted: [] };
  const entries = Object.entries(object).filter(([, v]) => v !== undefined);
  const cost = (key: string, value: unknown) => jsonLength(key) + 1 + jsonLength(value) + 1;
  // First the fields that fit whole, in order; then the text fields that did not, each cut to the room left.
  const kept = new Map<string, unknown>();
  let room = limit - NOTE_ROOM - NAMES_ROOM;
  let names = NAMES_ROOM;
  for (const [key, value] of entries)
    if (cost(key, value) <= room) {
      kept.set(key, value);
      room -= cost(key, value);
    }
  for (const [key, value] of entries) {
    if (kept.has(key)) continue;
    if (names < jsonLength(key) + 1) {
      note.more = (note.more ?? 0) + 1;
      continue;
    }
    names -= jsonLength(key) + 1;
    const left = room - jsonLength(key) - 2;
    if (typeof value === "string" && left >= MIN_KEPT) {
      kept.set(key, prefix(value, left));
      room -= cost(key, kept.get(key));
      note.shortened.push(key);
    } else note.omitted.push(key);
  }
  return { ...Object.fromEntries(entries.filter(([key]) => kept.has(key)).map(([key]) => [key, kept.get(key)])), _truncated: note };
}

/** The longest beginning of `text` whose JSON fits in `room` characters (not splitting a surrogate pair). */
function prefix(text: string, room: number): string {
  let n = Math.min(text.length, room - 2);
  let cut = text.slice(0, n);
  while (n > 0 && jsonLength(cut) > room) {
    n = Math.floor(n * 0.9);
    cut = text.slice(0, n);
  }
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}
