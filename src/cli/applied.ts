import type { Applied } from "../core/workspace/apply.ts";

/** At most this many files named in the line; the rest are counted. */
const NAMED = 10;

/**
 * What `od apply` says it did, for people: every file it changed by name, a new or deleted one
 * said so (stdout), and how to review them (stderr): `git diff` shows changed files, but a new
 * file is untracked and only `git status` shows it.
 */
export function appliedText(a: Applied): { out: string; advice: string } {
  const created = new Set(a.created);
  const deleted = new Set(a.deleted);
  const cell = (f: Applied["files"][number]) => {
    const kind = created.has(f.path) ? "new, " : deleted.has(f.path) ? "deleted, " : "";
    return `${f.path} (${kind}+${f.added} −${f.removed})`;
  };
  const named = a.files.slice(0, NAMED).map(cell);
  if (a.files.length > NAMED) named.push(`and ${a.files.length - NAMED} more`);
  const out = `applied ${a.label} in ${a.dir}: ${named.join(", ") || "no file"}`;
  const changed = a.files.filter((f) => !created.has(f.path)).map((f) => f.path);
  const list = (paths: string[]) => (paths.length > NAMED ? `${paths.slice(0, NAMED).join(", ")}, …` : paths.join(", "));
  const review = !a.git
    ? `review the files in ${a.dir}`
    : [
        changed.length ? `\`git diff\` shows the changes (${list(changed)})` : "",
        a.created.length ? `\`git status\` the new, untracked file${a.created.length > 1 ? "s" : ""} (${list([...created])})` : "",
      ]
        .filter(Boolean)
        .join(", ");
  return { out, advice: `nothing was committed or staged: ${review}; then commit what you keep yourself` };
}
