/**
 * acpx, a real ACP client from npm, drives `dist/od acp` over fake agents: a chat with a tool call,
 * a permission request it answers (and read-only, where its "allow" changes nothing), and a cancel.
 * Skipped, with the reason, where acpx is not installed.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { alive, DIST_OD, FAKE_ACP, FIXTURES, installFake, tmpdir } from "../helpers.ts";
import { ACPX, acpx, cancelled, NO_ACPX, stopReasonOf, textOf, updatesOf } from "./acpx-support.ts";

const suite = ACPX ? describe : describe.skip;
if (!ACPX) test.skip(`acpx drives od acp: ${NO_ACPX}`, () => {});

/** A fake claude that plays `steps` for a prompt (these have a space), and ends at once for od's probes. */
const fakeClaude = (dir: string, steps: unknown[]) => installFake(dir, "claude", [{ read: "all" }, { ifStdin: " ", then: steps }]);

function fakeAcpWriter(dir: string) {
  const path = join(dir, "hello.txt");
  const toolCall = { toolCallId: "tc-1", title: "Write hello.txt", kind: "edit", locations: [{ path }] };
  const options = [
    { optionId: "yes", name: "Allow", kind: "allow_once" },
    { optionId: "no", name: "Reject", kind: "reject_once" },
  ];
  const done = { update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "done" } } };
  const fake = installFake(dir, "gemini", { turn: [{ permission: { toolCall, options } }, done] }, FAKE_ACP);
  const answers = () =>
    readFileSync(fake.env.FAKE_RECORD!, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l))
      .filter((m) => m.answer)
      .map((m) => m.answer.result.outcome.optionId);
  return { ...fake, answers };
}

suite("acpx drives od acp (fake agents)", () => {
  test("a chat with a tool call: tool_call, tool_call_update completed, the text, end_turn", async () => {
    await using tmp = tmpdir();
    const fake = fakeClaude(tmp.path, [{ replay: join(FIXTURES, "claude/tool.jsonl") }]);
    const r = await acpx(`${DIST_OD} acp --agent claude`, tmp.path, ["--approve-all", "exec", "write hello.txt"], fake.env);
    expect(r.code).toBe(0);
    expect(updatesOf(r.wire, "tool_call")).toEqual([expect.objectContaining({ kind: "edit", status: "in_progress" })]);
    expect(updatesOf(r.wire, "tool_call_update")).toEqual([expect.objectContaining({ status: "completed" })]);
    expect(textOf(r.wire)).toBe("HELLO_WRITTEN_OK");
    expect(stopReasonOf(r.wire)).toBe("end_turn");
  }, 60_000);

  test("a permission request answered by acpx: --approve-all allows, --deny-all denies", async () => {
    await using tmp = tmpdir();
    const fake = fakeAcpWriter(tmp.path);
    const agent = `${DIST_OD} acp --agent gemini-acp`;
    const yes = await acpx(agent, tmp.path, ["--approve-all", "exec", "write hello.txt"], fake.env);
    expect(yes.wire.filter((m) => m.method === "session/request_permission")).toHaveLength(1);
    expect(fake.answers()).toEqual(["yes"]);
    const no = await acpx(agent, tmp.path, ["--deny-all", "exec", "write hello.txt"], fake.env);
    expect(no.wire.filter((m) => m.method === "session/request_permission")).toHaveLength(1);
    expect(fake.answers()).toEqual(["yes", "no"]);
  }, 60_000);

  test("read-only: acpx --approve-all is never asked, and the agent is denied", async () => {
    await using tmp = tmpdir();
    const fake = fakeAcpWriter(tmp.path);
    const r = await acpx(
      `${DIST_OD} acp --agent gemini-acp --mode read-only`,
      tmp.path,
      ["--approve-all", "exec", "write hello.txt"],
      fake.env,
    );
    expect(r.wire.filter((m) => m.method === "session/request_permission")).toEqual([]);
    expect(fake.answers()).toEqual(["no"]);
    expect(updatesOf(r.wire, "tool_call_update").at(-1)).toMatchObject({ status: "failed" });
  }, 60_000);

  test("acpx cancel: the prompt ends cancelled, and the agent's process is gone", async () => {
    await using tmp = tmpdir();
    const head = join(tmp.path, "head.jsonl");
    writeFileSync(head, `${readFileSync(join(FIXTURES, "claude/plain.jsonl"), "utf8").split("\n").slice(0, 5).join("\n")}\n`);
    const fake = fakeClaude(tmp.path, [{ replay: head }, { hang: true }]);
    const r = await cancelled(`${DIST_OD} acp --agent claude`, tmp.path, "go on forever", fake.env, (out) =>
      out.includes("agent_message_chunk"),
    );
    expect(r.wire.some((m) => m.method === "session/cancel")).toBe(true);
    expect(stopReasonOf(r.wire)).toBe("cancelled");
    expect(alive((fake.recorded() as unknown as { pid: number }).pid)).toBe(false);
  }, 60_000);
});
