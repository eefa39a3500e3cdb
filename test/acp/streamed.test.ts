/** A relayed permission request waits for the updates before it: the client is shown the call before it is asked about it. */
import { describe, expect, test } from "bun:test";
import { clientBroker } from "../../src/acp/permissions.ts";
import { Streamed } from "../../src/acp/streamed.ts";
import type { PermissionAsk } from "../../src/core/contract/permissions.ts";

const ask: Omit<PermissionAsk, "reply"> = { id: "req-1", tool: "Write a.txt", kind: "edit", paths: ["/w/a.txt"], toolCallId: "call-1" };
/** One turn of the event loop: whatever was ready to run has run. */
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

function broker(streamed: Streamed) {
  const asked: string[] = [];
  const client = {
    request: async (_method: string, params: { toolCall: { toolCallId: string } }) => {
      asked.push(params.toolCall.toolCallId);
      return { outcome: { outcome: "selected", optionId: "allow" } };
    },
  };
  const b = clientBroker({ client: client as never, sessionId: "s", mode: "edit", cwd: "/w", shown: streamed.reached.bind(streamed) });
  return { asked, b };
}

describe("a permission request after the updates before it", () => {
  test("asked only once the prompt's loop has passed the question", async () => {
    const streamed = new Streamed();
    const { asked, b } = broker(streamed);
    const answer = b(ask, new AbortController().signal);
    await turn();
    expect(asked).toEqual([]);
    streamed.pass("req-2"); // another question
    await turn();
    expect(asked).toEqual([]);
    streamed.pass("req-1");
    expect(await answer).toBe("allow");
    expect(asked).toEqual(["call-1"]);
  });

  test("a question the loop passed already, or a loop that ended, asks at once", async () => {
    const passed = new Streamed();
    passed.pass("req-1");
    expect(await broker(passed).b(ask, new AbortController().signal)).toBe("allow");
    const ended = new Streamed();
    const { b } = broker(ended);
    const answer = b(ask, new AbortController().signal);
    ended.end();
    expect(await answer).toBe("allow");
  });

  test("a run that stops while the question waits: no request, no answer", async () => {
    const streamed = new Streamed();
    const { asked, b } = broker(streamed);
    const stop = new AbortController();
    const answer = b(ask, stop.signal);
    stop.abort();
    expect(await answer).toBeUndefined();
    expect(asked).toEqual([]);
  });
});
