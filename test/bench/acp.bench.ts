/**
 * 6. One scripted ACP agent (test/bin/fake-acp.ts) driven by od (`dist/od run
 * --json --agent gemini-acp`, the fake installed as `gemini`) and by acpx
 * (`acpx --agent <the same fake> --format json --approve-all exec`), taking
 * turns: wall time from spawn to exit, and what each delivered. A small turn
 * (one message) shows the fixed cost; a large one streams `updates` session
 * updates (message and thought chunks, tool calls with results) with a few
 * permission requests, which both answer.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FAKE_ACP, tmpdir } from "../helpers.ts";
import { BUN, fakeBin, isolatedEnv, OD } from "./fakes.ts";
import { type Figure, figure } from "./stats.ts";

export const ACPX = process.env.OD_BENCH_ACPX ?? "/opt/od-scratch/acpx/node_modules/.bin/acpx";

/** The turn: `n` updates, every 50th a tool call plus its result, every 10th a thought, one permission request per 400. */
function script(n: number, cwd: string) {
  const turn: unknown[] = [];
  let text = "";
  for (let i = 0; i < n; i++) {
    if (i % 400 === 399)
      turn.push({
        permission: {
          toolCall: { toolCallId: `perm-${i}`, title: "Read README.md", kind: "read", locations: [{ path: join(cwd, "README.md") }] },
          options: [
            { optionId: "allow", name: "Allow", kind: "allow_once" },
            { optionId: "reject", name: "Reject", kind: "reject_once" },
          ],
        },
      });
    if (i % 50 === 49) {
      turn.push({ update: { sessionUpdate: "tool_call", toolCallId: `t${i}`, title: "Read file", kind: "read", status: "pending" } });
      turn.push({
        update: {
          sessionUpdate: "tool_call_update",
          toolCallId: `t${i}`,
          status: "completed",
          content: [{ type: "content", content: { type: "text", text: "ok" } }],
        },
      });
    } else if (i % 10 === 9)
      turn.push({ update: { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: `thinking ${i} ` } } });
    else {
      turn.push({ update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `w${i} ` } } });
      text += `w${i} `;
    }
  }
  return {
    script: { turn },
    text,
    updates: turn.filter((s) => (s as { update?: unknown }).update).length,
    permissions: turn.length - turn.filter((s) => (s as { update?: unknown }).update).length,
  };
}

interface Delivered {
  ms: number;
  events: number;
  textOk: boolean;
}

async function spawnTimed(cmd: string[], env: Record<string, string>, cwd: string): Promise<{ ms: number; out: string; code: number }> {
  const t = performance.now();
  const p = Bun.spawn(cmd, { env, cwd, stdout: "pipe", stderr: "ignore", stdin: "ignore" });
  const out = await new Response(p.stdout).text();
  const code = await p.exited;
  return { ms: performance.now() - t, out, code };
}

async function viaOd(env: Record<string, string>, cwd: string, text: string): Promise<Delivered> {
  const r = await spawnTimed([OD, "run", "--json", "--agent", "gemini-acp", "--cwd", cwd, "hi"], env, cwd);
  const events = r.out
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type: string; text?: string });
  const got = events
    .filter((e) => e.type === "text.delta")
    .map((e) => e.text)
    .join("");
  // Events that carry the agent's updates and requests (not od's own run.started/session/usage/run.finished).
  const carried = events.filter((e) =>
    ["text.delta", "thinking.delta", "tool.call", "tool.result", "permission.request"].includes(e.type),
  ).length;
  if (r.code !== 0) throw new Error(`od run (ACP) exited ${r.code}`);
  return { ms: r.ms, events: carried, textOk: got === text };
}

async function viaAcpx(env: Record<string, string>, cwd: string, agent: string, text: string): Promise<Delivered> {
  const r = await spawnTimed([ACPX, "--agent", agent, "--cwd", cwd, "--format", "json", "--approve-all", "exec", "hi"], env, cwd);
  let events = 0;
  let got = "";
  for (const line of r.out.split("\n")) {
    if (!line.startsWith("{")) continue;
    const m = JSON.parse(line) as { method?: string; params?: { update?: { sessionUpdate?: string; content?: { text?: string } } } };
    if (m.method === "session/update" || m.method === "session/request_permission") events++;
    if (m.params?.update?.sessionUpdate === "agent_message_chunk") got += m.params.update.content?.text ?? "";
  }
  if (r.code !== 0) throw new Error(`acpx exited ${r.code}`);
  return { ms: r.ms, events, textOk: got === text };
}

export async function benchAcp(opts: { reps: number; updates: number }): Promise<Figure[]> {
  if (!existsSync(ACPX))
    return [
      figure("6 acp", "acpx", "-", [], {
        note: `acpx not installed at ${ACPX}: npm install acpx in /opt/od-scratch/acpx (see README), or set OD_BENCH_ACPX`,
      }),
    ];
  await using tmp = tmpdir("od-bench-acp-");
  const out: Figure[] = [];
  for (const [size, n] of [
    ["small turn", 1],
    ["large turn", opts.updates],
  ] as const) {
    const s = script(n, tmp.path);
    const scriptFile = join(tmp.path, `acp-${n}.json`);
    writeFileSync(scriptFile, JSON.stringify(s.script));
    const agent = fakeBin(join(tmp.path, "bin"), "gemini", `FAKE_SCRIPT="${scriptFile}" exec "${BUN}" "${FAKE_ACP}" "$@"`);
    const env = isolatedEnv(tmp.path);
    const od: Delivered[] = [];
    const acpx: Delivered[] = [];
    await viaOd(env, tmp.path, s.text), await viaAcpx(env, tmp.path, agent, s.text); // warm-up
    for (let rep = 0; rep < opts.reps; rep++) {
      if (rep % 2) acpx.push(await viaAcpx(env, tmp.path, agent, s.text)), od.push(await viaOd(env, tmp.path, s.text));
      else od.push(await viaOd(env, tmp.path, s.text)), acpx.push(await viaAcpx(env, tmp.path, agent, s.text));
    }
    const label = `${size} (${s.updates} updates, ${s.permissions} permission requests)`;
    const textNote = (d: Delivered[]) => (d.every((x) => x.textOk) ? "message text complete and in order" : "message text INCOMPLETE");
    out.push(
      figure(
        "6 acp",
        `${label}: od wall`,
        "ms",
        od.map((d) => d.ms),
      ),
    );
    out.push(
      figure(
        "6 acp",
        `${label}: acpx wall`,
        "ms",
        acpx.map((d) => d.ms),
      ),
    );
    out.push(
      figure(
        "6 acp",
        `${label}: od / acpx wall`,
        "x",
        od.map((d, i) => d.ms / acpx[i]!.ms),
      ),
    );
    out.push(
      figure(
        "6 acp",
        `${label}: od events delivered`,
        "events",
        od.map((d) => d.events),
        { note: textNote(od) },
      ),
    );
    out.push(
      figure(
        "6 acp",
        `${label}: acpx updates delivered`,
        "events",
        acpx.map((d) => d.events),
        { note: textNote(acpx) },
      ),
    );
  }
  return out;
}
