import type { OdEventBody } from "../contract/events.ts";

/**
 * What goes between two parts of a text (text.delta ids that differ: separate messages) after
 * `before`, the text so far or its tail, when `after` starts the next part: enough line breaks
 * for a blank line, counting those either side already has, so "Let me check." and "Done!" never
 * read as "Let me check.Done!".
 */
export function partBreak(before: string, after = ""): string {
  if (!before) return "";
  const have = Math.min(trailingBreaks(before) + leadingBreaks(after), 2);
  return "\n".repeat(2 - have);
}

const trailingBreaks = (s: string) => (s.endsWith("\n\n") ? 2 : s.endsWith("\n") ? 1 : 0);
const leadingBreaks = (s: string) => (s.startsWith("\n\n") ? 2 : s.startsWith("\n") ? 1 : 0);

/**
 * Separate messages stay separate paragraphs in the stream itself: a text or thinking part that
 * follows another part of the same kind (and the same sub-agent) starts with the line breaks that
 * make a blank line between them. Anyone who joins the deltas as they come (an ACP client, an MCP
 * client's progress, a script printing `event.text`) then reads "English: one" and "Chinese: 一"
 * as two paragraphs, not "oneChinese"; the ids still say which part a delta belongs to.
 */
export class Paragraphs {
  /** Per kind of text (type and parent): the last part's id and the last two characters. */
  private readonly streams = new Map<string, { part: string; tail: string }>();

  apply(body: OdEventBody): OdEventBody {
    if ((body.type !== "text.delta" && body.type !== "thinking.delta") || !body.text) return body;
    const key = body.parent ? `${body.type} ${body.parent}` : body.type;
    const last = this.streams.get(key);
    const text = last && last.part !== body.id ? partBreak(last.tail, body.text) + body.text : body.text;
    const tail = text.length >= 2 ? text.slice(-2) : ((last?.tail ?? "") + text).slice(-2);
    // Kept in place: a delta costs no new entry (this runs for every delta of a run).
    if (last) {
      last.part = body.id;
      last.tail = tail;
    } else this.streams.set(key, { part: body.id, tail });
    return text === body.text ? body : { ...body, text };
  }
}
