import { defineAdapter, defineLinesProtocol, num, str } from "../../src/plugin.ts";

/**
 * A minimal line adapter for pipeline tests, driven by the fake agent:
 * {"t":"text","v":"..."} -> text.delta, {"t":"tool","id","name"} -> tool.call,
 * {"t":"result","id"} -> tool.result, {"t":"session","v"} -> session, {"t":"fail","v"} -> error.
 */
export const fakeAdapter = defineAdapter({
  id: "fake",
  name: "Fake Agent",
  install: "nothing to install",
  login: "fake login",
  bin: "fake-agent",
  efforts: ["low", "high"],
  capabilities: { streaming: true, resume: true, readOnly: true },
  prompt: { via: "stdin" },
  invoke: (ctx) => ({
    argv: [
      "--mode",
      ctx.mode,
      ...(ctx.model ? ["--model", ctx.model] : []),
      ...(ctx.effort ? ["--effort", ctx.effort] : []),
      ...(ctx.resume ? ["--resume", ctx.resume] : []),
    ],
    stdin: ctx.prompt,
  }),
  protocol: defineLinesProtocol({
    createState: () => ({}),
    parse: (record, _state, line) => {
      const r = record as Record<string, unknown>;
      switch (r.t) {
        case "text":
          return [{ type: "text.delta", id: "t", text: str(r.v) ?? "" }];
        case "tool":
          return [{ type: "tool.call", id: str(r.id) ?? "", name: str(r.name) ?? "", input: {} }];
        case "result":
          return [{ type: "tool.result", id: str(r.id) ?? "", output: "ok", isError: false }];
        case "session":
          return [{ type: "session", sessionId: str(r.v) ?? "", model: str(r.model) }];
        case "usage":
          return [
            {
              type: "usage",
              inputTokens: num(r.in),
              outputTokens: num(r.out),
              costUsd: num(r.cost),
              source: r.source === "run" ? "run" : "turn",
            },
          ];
        case "fail":
          return [{ type: "error", code: "AGENT_ERROR", message: str(r.v) ?? "", retryable: false }];
        case "throw":
          throw new Error("parser bug");
        case "bad":
          return [{ type: "text.delta" } as never];
        case "nothing":
          return undefined as never; // a plugin that forgot to answer a list
        default:
          return [{ type: "raw", stream: "stdout", line }];
      }
    },
  }),
  classify: ({ stderrTail }) =>
    stderrTail.includes("401") ? { code: "AGENT_AUTH_REQUIRED", message: "key rejected", hint: "fake login" } : undefined,
});

/** An ACP agent, played by test/bin/fake-acp.ts. */
export const fakeAcpAdapter = defineAdapter({
  id: "fake-acp",
  name: "Fake ACP",
  install: "nothing",
  login: "fake-acp login",
  bin: "fake-acp",
  capabilities: { streaming: true, resume: true, readOnly: true },
  prompt: { via: "protocol" },
  invoke: () => ({ argv: ["acp"] }),
  protocol: { kind: "driver", driver: "acp" },
});
