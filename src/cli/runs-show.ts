import { homedir } from "node:os";
import { resolveRunId, summaryOf } from "../core/runs/history.ts";
import type { Group } from "../core/store/groups.ts";
import type { RunLog } from "../core/store/run-log.ts";
import type { RunSummary } from "../core/store/summary.ts";
import { colorFor } from "./color.ts";
import { createTextRenderer } from "./render.ts";
import { table } from "./table.ts";

/**
 * `od runs show <id>`: a run's summary, its events replayed through the same renderer `od run`
 * uses, and its diff; for a compare run, its members and how to apply one. All on stdout (it is
 * what was asked for), so it pipes to a pager whole. With --json: the events as JSON lines.
 */
export function showRun(log: RunLog, prefix: string, json: boolean): void {
  const { id, group } = resolveRunId(log, prefix);
  if (group) return json ? void process.stdout.write(`${JSON.stringify(group)}\n`) : showGroup(log, group);
  const events = log.read(id);
  if (json) return void process.stdout.write(events.map((e) => `${JSON.stringify(e)}\n`).join(""));
  const run = summaryOf(log, id);
  const out = process.stdout;
  if (run) out.write(`${header(run)}\n\n`);
  const color = colorFor(out);
  const render = createTextRenderer(out, out, color);
  for (const event of events) render(event);
  if (!events.length) out.write("(no events logged)\n");
  const result = events.findLast((e) => e.type === "run.result");
  if (result?.type === "run.result" && result.files.length) out.write(`\nfiles changed: ${result.files.join(", ")}\n`);
  if (result?.type === "run.result" && result.diff) out.write(`\n${result.diff.endsWith("\n") ? result.diff : `${result.diff}\n`}`);
}

/** The run's summary as aligned lines: what ran where, how it went, and how to go on from it. */
function header(r: RunSummary): string {
  const lines: Array<[string, string | undefined]> = [
    ["run", r.runId],
    ["agent", [r.agent, r.model && `model ${r.model}`, r.mode && `mode ${r.mode}`].filter(Boolean).join(", ")],
    ["cwd", r.cwd],
    [
      "started",
      `${new Date(r.startedAt).toLocaleString()} (${ago(r.startedAt)})${r.origin ? ` from od ${r.origin === "cli" ? "run" : r.origin}` : ""}`,
    ],
    ["status", r.status === "running" ? "running" : `${r.status} in ${seconds(r.durationMs)}`],
    ["usage", usage(r.usage)],
    ["session", r.sessionId],
    ["resume", r.resumable && r.sessionId ? resumeCommand(r) : undefined],
    ["group", r.groupId && `part of compare run ${r.groupId} (od runs show ${short(r.groupId)})`],
    ["prompt", r.prompt],
  ];
  return lines
    .filter((l): l is [string, string] => Boolean(l[1]))
    .map(([k, v]) => `${k.padEnd(8)} ${k === "prompt" ? v.replace(/\n/g, `\n${" ".repeat(9)}`) : v}`)
    .join("\n");
}

function usage(u: RunSummary["usage"]): string | undefined {
  if (!u) return undefined;
  const parts = [];
  if (u.inputTokens !== undefined || u.outputTokens !== undefined)
    parts.push(`${u.inputTokens ?? 0} in / ${u.outputTokens ?? 0} out tokens`);
  if (u.costUsd !== undefined) parts.push(`$${u.costUsd.toFixed(4)}`);
  return parts.join(", ") || undefined;
}

const quote = (s: string) => (/^[\w./~:@%+=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

function resumeCommand(r: RunSummary): string {
  return `od run --agent ${r.agent} --resume ${quote(r.sessionId!)}${r.cwd ? ` --cwd ${quote(r.cwd)}` : ""} "<your next prompt>"`;
}

function showGroup(log: RunLog, group: Group): void {
  const out = process.stdout;
  out.write(
    `compare run ${group.id}\ncwd      ${group.cwd}\nstarted  ${new Date(group.startedAt).toLocaleString()} (${ago(group.startedAt)})\n`,
  );
  out.write(`prompt   ${group.prompt.replace(/\n/g, `\n${" ".repeat(9)}`)}\n\n`);
  const rows = group.members.map((m) => [
    m.label,
    short(m.runId),
    summaryOf(log, m.runId)?.status ?? m.status,
    seconds(m.durationMs),
    m.usage?.inputTokens === undefined ? "-" : `${m.usage.inputTokens}/${m.usage.outputTokens ?? 0}`,
    m.files.length ? m.files.map((f) => `${f.path} +${f.added} -${f.removed}`).join(", ") : "-",
    m.kept ? (m.kept.kind === "branch" ? m.kept.branch : m.kept.file) : (m.note ?? "-"),
  ]);
  out.write(`${table(["label", "run", "status", "time", "tokens in/out", "files changed", "kept as"], rows)}\n\n`);
  if (group.applied) out.write(`applied: ${group.applied.label} (${ago(group.applied.at)})\n`);
  else if (group.members.some((m) => m.kept))
    out.write(`apply one with: od apply ${group.id} <label>   (e.g. od apply ${group.id} ${group.members.find((m) => m.kept)!.label})\n`);
  out.write(`each member's own events: od runs show <run>\n`);
}

export const short = (id: string) => id.slice(0, 8);

export function seconds(ms: number | undefined): string {
  return ms === undefined ? "-" : `${(ms / 1000).toFixed(1)}s`;
}

/** A path with the home directory as ~. */
export function home(path: string | undefined): string {
  const dir = homedir();
  return !path ? "-" : path === dir || path.startsWith(`${dir}/`) ? `~${path.slice(dir.length)}` : path;
}

/** When, relative to now: "just now", "5 min ago", "3 h ago", then the local date. */
export function ago(ts: number, now = Date.now()): string {
  const s = Math.round((now - ts) / 1000);
  if (s < 45) return "just now";
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86_400) return `${Math.round(s / 3600)} h ago`;
  if (s < 7 * 86_400) return `${Math.round(s / 86_400)} d ago`;
  return new Date(ts).toLocaleDateString();
}
