import { lineTotals } from "../core/run/compare-record.ts";
import type { Group, GroupMember } from "../core/store/groups.ts";
import { table } from "./table.ts";

/** At most this many file names per row; the rest are counted. */
const FILES_SHOWN = 3;

/** `a.txt (+2 −1), b.txt (+1 −0)`, or `-` when nothing changed. */
export function filesCell(files: GroupMember["files"]): string {
  if (!files.length) return "-";
  const named = files.slice(0, FILES_SHOWN).map((f) => `${f.path} (+${f.added} −${f.removed})`);
  if (files.length > FILES_SHOWN) {
    const { added, removed } = lineTotals(files);
    named.push(`${files.length - FILES_SHOWN} more; +${added} −${removed} in all`);
  }
  return named.join(", ");
}

const tokens = (m: GroupMember) =>
  m.usage?.inputTokens === undefined && m.usage?.outputTokens === undefined
    ? "-"
    : `${m.usage.inputTokens ?? 0}/${m.usage.outputTokens ?? 0}`;

/**
 * The closing table of a compare run: one row per member (label, status, time, tokens, cost,
 * files with +/− lines, the command that applies it), the session to resume, and how to drop them all.
 */
export function compareTable(group: Group, recorded = true): string {
  const rows = group.members.map((m) => [
    m.label,
    m.status,
    `${(m.durationMs / 1000).toFixed(1)}s`,
    tokens(m),
    m.usage?.costUsd === undefined ? "-" : `$${m.usage.costUsd.toFixed(4)}`,
    filesCell(m.files),
    m.kept && recorded ? `od apply ${group.id} ${shellWord(m.label)}` : m.note && !m.kept ? m.note : "-",
  ]);
  const lines = [table(["run", "status", "time", "tokens in/out", "cost", "files changed", "apply with"], rows)];
  for (const m of group.members)
    if (m.sessionId && m.resumable !== false) lines.push(`${m.label}: resume with od run --agent ${m.agent} --resume ${m.sessionId}`);
  if (group.members.some((m) => m.kept))
    lines.push(`compare run ${group.id}: results kept ${keptWhere(group)}; drop them all with od discard ${group.id}`);
  return lines.join("\n");
}

const keptWhere = (group: Group) =>
  group.members.some((m) => m.kept?.kind === "branch") ? `as branches od/${group.id}/<run>` : "as patches in od's home";

/** A label as a shell word: `pi#2` quoted (zsh's extended globs read `#`). */
const shellWord = (label: string) => (/^[\w.-]+$/.test(label) ? label : `'${label}'`);
