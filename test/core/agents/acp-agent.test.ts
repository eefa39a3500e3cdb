/** defineAcpAgent: what the preset fills in, and how an agent's differences replace it. */
import { describe, expect, test } from "bun:test";
import { defineAcpAgent } from "../../../src/core/agents/acp-agent.ts";
import { parseVersion } from "../../../src/core/agents/adapter-helpers.ts";
import { type InvokeContext, validateAdapter } from "../../../src/core/contract/adapter.ts";

const BASE = { id: "some-agent", name: "Some Agent", login: "run `some login`", install: "npm i -g some", bin: "some" };
const ctx = (mode: InvokeContext["mode"], more: Partial<InvokeContext> = {}): InvokeContext => ({
  prompt: "p",
  cwd: "/w",
  mode,
  bin: "some",
  ...more,
});
const failed = (stderrTail: string) => ({ exitCode: 1, signal: null, stderrTail, events: [] });

describe("defineAcpAgent", () => {
  test("the preset: prompt over the protocol, the acp driver, --version by the common pattern, the protocol's capabilities", () => {
    const a = validateAdapter(defineAcpAgent({ ...BASE, capabilities: { resume: false, readOnly: false } }));
    expect(a.prompt).toEqual({ via: "protocol" });
    expect(a.protocol).toEqual({ kind: "driver", driver: "acp" });
    expect(a.version).toEqual({ args: ["--version"], parse: parseVersion });
    expect(a.capabilities).toMatchObject({ streaming: true, relayApprovals: true, skills: "prompt", resume: false, readOnly: false });
    expect(a.models).toEqual([]);
    expect(a.invoke(ctx("edit"))).toEqual({ argv: [] });
  });

  test("capabilities and the version reader are the agent's to override", () => {
    const parse = (out: string) => out.split(" ")[1];
    const a = defineAcpAgent({
      ...BASE,
      version: { args: ["-V"], parse },
      capabilities: { resume: true, readOnly: true, streaming: false, skills: "file" },
      skillTarget: "AGENTS.md",
    });
    expect(a.version).toEqual({ args: ["-V"], parse });
    expect(a.capabilities).toEqual({
      streaming: false,
      relayApprovals: true,
      mcpServers: true,
      skills: "file",
      resume: true,
      readOnly: true,
    });
  });

  test("a failure is read from stderr with the agent's own name and login; what is not known stays unclassified", () => {
    const a = defineAcpAgent({ ...BASE, capabilities: { resume: false, readOnly: false } });
    expect(a.classify(failed("Error: 401 Unauthorized"))).toMatchObject({ code: "AGENT_AUTH_REQUIRED", hint: "Log in: run `some login`" });
    expect(a.classify(failed("segfault"))).toBeUndefined();
  });

  test("a classifier of the agent's own comes first, and can fall back on the preset's", () => {
    const a = defineAcpAgent({
      ...BASE,
      capabilities: { resume: false, readOnly: false },
      classify: (c, byStderr) => (c.stderrTail.includes("gateway") ? { code: "AGENT_ERROR", message: "no gateway" } : byStderr(c)),
    });
    expect(a.classify(failed("no gateway listening"))).toEqual({ code: "AGENT_ERROR", message: "no gateway" });
    expect(a.classify(failed("rate limit exceeded (429)"))).toMatchObject({ code: "RATE_LIMITED" });
  });

  test("the ACP entry and its environment: fixed, or per run; no env key when there is none", () => {
    const fixed = defineAcpAgent({ ...BASE, capabilities: { resume: false, readOnly: false }, argv: ["acp", "serve"], env: { A: "1" } });
    const one = fixed.invoke(ctx("full"));
    expect(one).toEqual({ argv: ["acp", "serve"], env: { A: "1" } });
    one.argv.push("--more"); // a run's argv is its own
    expect(fixed.invoke(ctx("full")).argv).toEqual(["acp", "serve"]);
    const perRun = defineAcpAgent({
      ...BASE,
      capabilities: { resume: false, readOnly: false },
      argv: (c) => ["--acp", "--mode", c.mode],
      env: (c) => (c.mode === "full" ? undefined : { ASK: "1" }),
    });
    expect(perRun.invoke(ctx("edit"))).toEqual({ argv: ["--acp", "--mode", "edit"], env: { ASK: "1" } });
    expect(Object.keys(perRun.invoke(ctx("full")))).toEqual(["argv"]);
  });

  test("modes: a bare value is the session's `mode` option; any other option is given whole", () => {
    const a = defineAcpAgent({
      ...BASE,
      capabilities: { resume: false, readOnly: true },
      modes: { "read-only": "plan", edit: { configId: "allow_all", value: "off" } },
    });
    expect(a.protocol).toEqual({
      kind: "driver",
      driver: "acp",
      options: { modes: { "read-only": { configId: "mode", value: "plan" }, edit: { configId: "allow_all", value: "off" } } },
    });
  });
});
