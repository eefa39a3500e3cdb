/**
 * `od acp`, compiled, driven by the ACP SDK's own client: the handshake, a prompt streamed as
 * session/updates, permission requests relayed and answered, cancel, the mode as a ceiling, errors
 * with od's codes, and session/load. The inner agents are fakes: claude (stream-json) and an ACP
 * agent installed as `gemini` (driven through gemini-acp).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RequestError } from "@agentclientprotocol/sdk";
import { alive, DIST_OD, FAKE_ACP, FIXTURES, installFake, tmpdir } from "../helpers.ts";
import { acpClient, allow } from "./client.ts";

const od = (...args: string[]) => [DIST_OD, "acp", ...args];
/** A fake claude that plays `steps` for a prompt (every prompt here has a space), and ends at once for od's probes (no stdin). */
const fakeClaude = (dir: string, steps: unknown[]) => installFake(dir, "claude", [{ read: "all" }, { ifStdin: " ", then: steps }]);

/** An ACP agent (test/bin/fake-acp.ts) installed as `gemini`: it asks to write hello.txt in `cwd`, then answers. */
function fakeAcp(dir: string, cwd: string) {
  const path = join(cwd, "hello.txt");
  const toolCall = { toolCallId: "tc-1", title: "Write hello.txt", kind: "edit", locations: [{ path }] };
  const options = [
    { optionId: "yes", name: "Allow", kind: "allow_once" },
    { optionId: "no", name: "Reject", kind: "reject_once" },
  ];
  const fake = installFake(dir, "gemini", { turn: [{ permission: { toolCall, options } }, chunk("done")] }, FAKE_ACP);
  const answers = () =>
    readFileSync(fake.env.FAKE_RECORD!, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((m) => m.answer)
      .map((m) => m.answer.result.outcome);
  return { ...fake, answers };
}
const chunk = (text: string) => ({ update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } });

describe("od acp (compiled) under the SDK's client", () => {
  test("initialize, session/new, a prompt: text chunks, a tool call completed, end_turn", async () => {
    await using tmp = tmpdir();
    const fake = fakeClaude(tmp.path, [{ replay: join(FIXTURES, "claude/tool.jsonl") }]);
    const c = acpClient(od("--agent", "claude"), fake.env);
    const init = await c.initialize();
    expect(init.agentInfo?.name).toBe("od");
    expect(init.agentCapabilities).toMatchObject({ loadSession: true, promptCapabilities: { image: false } });
    const session = await c.newSession(tmp.path);
    expect(session.modes?.currentModeId).toBe("edit");
    expect(session.modes?.availableModes.map((m) => m.id)).toEqual(["read-only", "edit"]);
    expect(session.configOptions?.map((o) => o.id)).toEqual(["model"]);
    const res = await c.prompt(session.sessionId, "write hello.txt");
    expect(res.stopReason).toBe("end_turn");
    expect(
      c
        .of("agent_message_chunk")
        .map((u) => (u.content.type === "text" ? u.content.text : ""))
        .join(""),
    ).toBe("HELLO_WRITTEN_OK");
    expect(c.of("tool_call")).toEqual([expect.objectContaining({ toolCallId: "call_mx291gjm0001", kind: "edit", status: "in_progress" })]);
    expect(c.of("tool_call_update")).toEqual([expect.objectContaining({ toolCallId: "call_mx291gjm0001", status: "completed" })]);
    expect(fake.recorded().stdin.join("")).toContain("write hello.txt");
    expect(await c.close()).toBe(0);
  }, 30_000);

  test("a permission request goes to the client, and its answer back to the agent", async () => {
    await using tmp = tmpdir();
    const fake = fakeAcp(tmp.path, tmp.path);
    const c = acpClient(od("--agent", "gemini-acp"), fake.env, allow);
    await c.initialize();
    const { sessionId } = await c.newSession(tmp.path);
    expect((await c.prompt(sessionId, "write it")).stopReason).toBe("end_turn");
    expect(c.asked).toEqual([
      expect.objectContaining({ sessionId, toolCall: expect.objectContaining({ title: "Write hello.txt", kind: "edit" }) }),
    ]);
    expect(fake.answers()).toEqual([{ outcome: "selected", optionId: "yes" }]);

    // The client's rejection is the agent's.
    const d = acpClient(od("--agent", "gemini-acp"), fake.env, () => ({ outcome: { outcome: "selected", optionId: "reject" } }));
    await d.initialize();
    const second = await d.newSession(tmp.path);
    await d.prompt(second.sessionId, "write it");
    expect(fake.answers().at(-1)).toEqual({ outcome: "selected", optionId: "no" });
    await Promise.all([c.close(), d.close()]);
  }, 30_000);

  test("read-only: a client's allow cannot make the agent write, and the session cannot widen its mode", async () => {
    await using tmp = tmpdir();
    const fake = fakeAcp(tmp.path, tmp.path);
    const c = acpClient(od("--agent", "gemini-acp", "--mode", "read-only"), fake.env, allow);
    await c.initialize();
    const { sessionId, modes } = await c.newSession(tmp.path);
    expect(modes?.availableModes.map((m) => m.id)).toEqual(["read-only"]);
    const widen = await c.agent.request("session/set_mode", { sessionId, modeId: "full" }).catch((e: RequestError) => e);
    expect((widen as RequestError).data).toMatchObject({ code: "INVALID_REQUEST" });
    await c.prompt(sessionId, "write it");
    expect(c.asked).toEqual([]); // denied by the mode before anyone is asked
    expect(fake.answers()).toEqual([{ outcome: "selected", optionId: "no" }]);
    expect(c.of("tool_call_update").at(-1)).toMatchObject({ status: "failed" });
    await c.close();
  }, 30_000);

  test("session/cancel: stopReason cancelled, and the agent's process is gone", async () => {
    await using tmp = tmpdir();
    const head = join(tmp.path, "head.jsonl");
    writeFileSync(head, `${readFileSync(join(FIXTURES, "claude/plain.jsonl"), "utf8").split("\n").slice(0, 5).join("\n")}\n`);
    const fake = fakeClaude(tmp.path, [{ replay: head }, { hang: true }]);
    const c = acpClient(od("--agent", "claude"), fake.env);
    await c.initialize();
    const { sessionId } = await c.newSession(tmp.path);
    const turn = c.prompt(sessionId, "go on forever");
    await c.until((n) => n.update.sessionUpdate === "agent_message_chunk");
    const { pid } = fake.recorded() as unknown as { pid: number };
    expect(alive(pid)).toBe(true);
    await c.agent.notify("session/cancel", { sessionId });
    expect((await turn).stopReason).toBe("cancelled");
    expect(alive(pid)).toBe(false);
    await c.close();
  }, 30_000);

  test("errors carry od's code and hint; an unknown --agent stops od acp before it serves", async () => {
    await using tmp = tmpdir();
    const fake = fakeClaude(tmp.path, []);
    const c = acpClient(od("--agent", "codex"), fake.env); // no codex on PATH
    await c.initialize();
    const { sessionId } = await c.newSession(tmp.path);
    const err = (await c.prompt(sessionId, "hi there").catch((e) => e)) as RequestError;
    expect(err.data).toMatchObject({ code: "AGENT_NOT_FOUND", hint: expect.stringContaining("npm") });
    const relative = (await c.agent.request("session/new", { cwd: "rel", mcpServers: [] }).catch((e) => e)) as RequestError;
    expect(relative.code).toBe(-32602);
    await c.close();

    const p = Bun.spawnSync(od("--agent", "nope"), { env: fake.env, stdin: "ignore" });
    expect(p.exitCode).toBe(2);
    expect(p.stdout.toString()).toBe("");
    expect(p.stderr.toString()).toContain("AGENT_UNKNOWN");
  }, 30_000);

  test("a session the agent cannot load: the prompt's error says what to do in ACP's terms, not od run's flags", async () => {
    await using tmp = tmpdir();
    // qwen-acp resumes (session/load), but this agent says it cannot (loadSession false).
    const fake = installFake(tmp.path, "qwen", { loadSession: false, turn: [chunk("hi")] }, FAKE_ACP);
    const c = acpClient(od("--agent", "qwen-acp"), fake.env);
    await c.initialize();
    await c.agent.request("session/load", { sessionId: "the-agents-own-session", cwd: tmp.path, mcpServers: [] });
    const err = (await c.prompt("the-agents-own-session", "go on").catch((e) => e)) as RequestError;
    expect(err.data).toMatchObject({ code: "INVALID_REQUEST", hint: "Start a new session (session/new): this one cannot be continued." });
    expect(JSON.stringify(err.data)).not.toContain("--");
    await c.close();
  }, 30_000);

  test("session/load in a later od acp: the conversation replayed, the next prompt resumes the agent's session", async () => {
    await using tmp = tmpdir();
    const fake = fakeClaude(tmp.path, [{ replay: join(FIXTURES, "claude/plain.jsonl") }]);
    const first = acpClient(od("--agent", "claude"), fake.env);
    await first.initialize();
    const { sessionId } = await first.newSession(tmp.path);
    await first.prompt(sessionId, "say it");
    await first.close();

    const again = acpClient(od("--agent", "claude"), fake.env);
    await again.initialize();
    await again.agent.request("session/load", { sessionId, cwd: tmp.path, mcpServers: [] });
    expect(again.of("user_message_chunk").map((u) => (u.content.type === "text" ? u.content.text : ""))).toEqual(["say it"]);
    expect(again.of("agent_message_chunk").length).toBeGreaterThan(0);
    await again.prompt(sessionId, "once more");
    expect(fake.recorded().argv.join(" ")).toContain("--resume a8502b9f-1c7c-4b65-8114-46286ff56fff");
    await again.close();
  }, 30_000);
});
