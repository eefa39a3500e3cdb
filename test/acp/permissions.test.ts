/** The call a relayed permission request is about, as od acp sends it: valid in each ACP SDK generation. */
import { describe, expect, test } from "bun:test";
import { PERMISSION_OPTIONS, permissionToolCall } from "../../src/acp/permissions.ts";
import type { PermissionAsk } from "../../src/core/contract/permissions.ts";
import { current, problems, SDK_045, zed045 } from "./generations.ts";

type Ask = Omit<PermissionAsk, "reply">;
const CWD = "/work/p";

const cases: Array<[string, Ask, unknown]> = [
  [
    "an ACP agent's call: its id, its input whole, its paths absolute",
    {
      id: "req-7",
      tool: "Write a.txt",
      kind: "edit",
      paths: ["a.txt", "/work/p/b.txt"],
      toolCallId: "call-1",
      input: { file_path: "a.txt" },
    },
    {
      toolCallId: "call-1",
      title: "Write a.txt",
      kind: "edit",
      status: "pending",
      locations: [{ path: "/work/p/a.txt" }, { path: "/work/p/b.txt" }],
      rawInput: { file_path: "a.txt" },
    },
  ],
  [
    "a command whose input is a string: an object all the same",
    { id: "3", tool: "Bash", kind: "execute", toolCallId: "c3", input: "ls", detail: '"ls"' },
    { toolCallId: "c3", title: "Bash", kind: "execute", status: "pending", rawInput: { value: "ls" } },
  ],
  [
    "an extension's question (pi): no call, no input; its words as text",
    { id: "ui-1", tool: "pi extension confirm", kind: "other", detail: "Deploy: really?" },
    {
      toolCallId: "permission-ui-1",
      title: "pi extension confirm",
      kind: "other",
      status: "pending",
      content: [{ type: "content", content: { type: "text", text: "Deploy: really?" } }],
    },
  ],
];

describe("permissionToolCall", () => {
  for (const [name, ask, expected] of cases)
    test(name, async () => {
      const toolCall = permissionToolCall(ask, CWD);
      expect(toolCall).toEqual(expected as never);
      const request = {
        jsonrpc: "2.0",
        id: 0,
        method: "session/request_permission",
        params: { sessionId: "s", toolCall, options: PERMISSION_OPTIONS },
      };
      expect(problems(await current(), [request], [])).toEqual([]);
      if (SDK_045) expect(problems(await zed045(SDK_045), [request], [])).toEqual([]);
    });
});
