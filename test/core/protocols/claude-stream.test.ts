/**
 * The shared Claude stream-json mapping (protocols/claude-stream.ts): the ids of streamed text and
 * thinking deltas, "<message id>:<block index>", made once per block (deltaId) yet right whenever
 * the message or the block changes.
 */
import { describe, expect, test } from "bun:test";
import type { OdEventBody } from "../../../src/core/contract/events.ts";
import { claudeStream } from "../../../src/core/protocols/claude-stream.ts";

const protocol = claudeStream({ agent: { name: "Claude Code", login: "claude /login" }, resultError: () => undefined });

/** The stream_event records of Claude Code's --include-partial-messages output. */
const start = (id: string) => ({ type: "stream_event", event: { type: "message_start", message: { id } } });
const text = (index: number, t: string) => ({
  type: "stream_event",
  event: { type: "content_block_delta", index, delta: { type: "text_delta", text: t } },
});
const thinking = (index: number, t: string) => ({
  type: "stream_event",
  event: { type: "content_block_delta", index, delta: { type: "thinking_delta", thinking: t } },
});

function mapped(records: object[]): OdEventBody[] {
  const state = protocol.createState();
  return records.flatMap((r) => protocol.parse(r, state, JSON.stringify(r)));
}

describe("Claude stream deltas", () => {
  test("each delta carries its message and block: a new block, a block again, a new message with the same index", () => {
    const events = mapped([
      start("msg_a"),
      thinking(0, "hmm"),
      text(1, "a"),
      text(1, "b"),
      thinking(0, "again"),
      text(1, "c"),
      start("msg_b"),
      text(1, "d"),
      text(0, "e"),
    ]);
    expect(events.map((e) => (e.type === "text.delta" || e.type === "thinking.delta" ? `${e.type} ${e.id} ${e.text}` : e.type))).toEqual([
      "thinking.delta msg_a:0 hmm",
      "text.delta msg_a:1 a",
      "text.delta msg_a:1 b",
      "thinking.delta msg_a:0 again",
      "text.delta msg_a:1 c",
      "text.delta msg_b:1 d",
      "text.delta msg_b:0 e",
    ]);
  });

  test("deltas before any message_start are the message 'msg''s, and a state is its own run's", () => {
    expect(mapped([text(0, "x")])).toEqual([{ type: "text.delta", id: "msg:0", text: "x" }]);
    const first = mapped([start("msg_a"), text(0, "x")]);
    const second = mapped([text(0, "y")]);
    expect([first.at(-1), second[0]]).toEqual([
      { type: "text.delta", id: "msg_a:0", text: "x" },
      { type: "text.delta", id: "msg:0", text: "y" },
    ]);
  });
});
