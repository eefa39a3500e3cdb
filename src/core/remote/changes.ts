import { OdError } from "../contract/errors.ts";
import type { Env } from "../contract/request.ts";
import type { Changes, ChangesSource } from "../workspace/changes.ts";
import { MAX_FILES } from "../workspace/changes.ts";
import { type GitTree, MAX_DIFF_BYTES } from "../workspace/git.ts";
import { afterScript, beforeScript, diffScript, disposeScript, END, parseStatus } from "./changes-scripts.ts";
import { type ExecResult, execOnTarget } from "./exec.ts";
import { formatTarget, type Target } from "./target.ts";

/** Each round trip's time limit: a status of a large repository, or a walk of a large folder, is still an answer. */
const STEP_MS = 30_000;
/** A diff asked for more names than this (in bytes, quoted) would outgrow one argument of the remote shell. */
const MAX_NAMES_BYTES = 96 * 1024;

interface Picture {
  marker: string;
  prefix: string;
  /** The repository as found before the agent ran: every later script works on it, whatever `.git` the agent wrote. */
  repo: GitTree;
  status: Map<string, string>;
}

/**
 * run.result's files and diff, taken on the target with its git: before the agent is launched, a
 * marker file and git's status of the working directory; after it ends, the status again and the
 * files written since the marker (`find -newer`), so a file already changed before the run counts
 * only when the agent wrote it again; then the diff of those files against a private copy of the
 * index. Outside a git work tree nothing is taken, and the note says so. Bounded: 30 s a round
 * trip, 1 MiB of diff.
 */
export function remoteChanges(target: Target, cwd: string, env: Env): ChangesSource {
  const where = `${cwd || "the login directory"} on ${formatTarget(target)}`;
  const run = (script: string, maxBytes?: number) => execOnTarget(target, script, { env, timeoutMs: STEP_MS, maxBytes });
  let before: Picture | string | undefined;
  return {
    early: true,
    async snapshot() {
      before = await take(() => run(beforeScript(cwd)), where);
    },
    async changes(): Promise<Changes> {
      if (typeof before !== "object") return { files: [], note: `changes not tracked: ${before ?? `${where} was not read`}` };
      const after = await run(afterScript(cwd, before.repo, before.marker)).catch((e: unknown) => OdError.from(e));
      const fields = after instanceof OdError ? undefined : complete(after);
      if (!fields) return { files: [], note: `changes not tracked: ${where} could not be read after the run` };
      const cut = fields.indexOf("");
      const status = parseStatus(fields.slice(0, cut), before.prefix);
      const written = fields.slice(cut + 1).map((f) => f.replace(/^\.\//, ""));
      const files = changed(before.status, status, written);
      if (files.length > MAX_FILES) return { files: [], note: `changes not tracked: over ${MAX_FILES} files changed in ${where}` };
      const untracked = files.filter((f) => status.get(f) === "??");
      if (files.reduce((n, f) => n + f.length + 3, 0) > MAX_NAMES_BYTES) return { files, note: "no diff: too many names to ask git for" };
      return { files, diff: files.length ? await diff(run, diffScript(cwd, before.repo, files, untracked)) : undefined };
    },
    async dispose() {
      if (typeof before === "object") await run(disposeScript(before.marker)).catch(() => {});
    },
  };
}

/** The picture before the agent, or why there is none. */
async function take(run: () => Promise<ExecResult>, where: string): Promise<Picture | string> {
  const r = await run().catch((e: unknown) => OdError.from(e));
  if (r instanceof OdError) return `${where} could not be read (${r.message})`;
  const fields = complete(r);
  if (!fields) return `${where} could not be read${r.timedOut ? " in time" : ` (exit ${r.exitCode}${said(r)})`}`;
  if (fields[0] !== "repo") return `${where} is not in a git work tree, so there is no diff and no list of files`;
  const [, marker, prefix, gitDir, workTree] = fields as [string, string, string, string, string];
  return { marker, prefix, repo: { gitDir, workTree }, status: parseStatus(fields.slice(5, fields.indexOf("", 5)), prefix) };
}

/** A script's NUL-separated fields, when it ran to its end (the last field is END). */
function complete(r: ExecResult): string[] | undefined {
  if (r.exitCode !== 0 || r.cut) return undefined;
  const fields = r.stdout.toString("utf8").split("\0");
  if (fields.at(-1) === "") fields.pop();
  if (fields.at(-1) !== END) return undefined;
  fields.pop();
  return fields;
}

/** Written since the picture, or with another git status than before (deleted, restored, renamed), as local changes are: node_modules aside. */
function changed(before: Map<string, string>, after: Map<string, string>, written: string[]): string[] {
  const files = new Set(written);
  for (const path of new Set([...before.keys(), ...after.keys()])) if (before.get(path) !== after.get(path)) files.add(path);
  return [...files].filter((f) => f && !f.split("/").includes("node_modules")).sort();
}

async function diff(run: (script: string, maxBytes?: number) => Promise<ExecResult>, script: string): Promise<string | undefined> {
  const r = await run(script, MAX_DIFF_BYTES).catch(() => undefined);
  if (!r) return undefined;
  const text = r.stdout.toString("utf8");
  if (r.cut) return `${text}\n[od: the output is longer than ${MAX_DIFF_BYTES} bytes and was cut here]\n`;
  return r.exitCode === 0 && text ? text : undefined;
}

function said(r: ExecResult): string {
  const last = r.stderr.trim().split("\n").pop()?.slice(0, 200);
  return last ? `: ${last}` : "";
}
