import { chmodSync, closeSync, mkdirSync, openSync, realpathSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { z } from "zod";
import type { Mode } from "../events.ts";
import { inGitMetadata } from "../run/permissions.ts";
import { display, isInside, kindOf, lstatOrUndefined, readRegular, resolveInside, ToolError } from "./sandbox.ts";
import { type ToolSpec, UNPARSED } from "./types.ts";

/** Read refuses larger files (about 64k tokens); Write and Edit refuse larger contents. */
export const READ_CAP = 256 * 1024;
export const WRITE_CAP = 1024 * 1024;

const path = { type: "string", description: "File path relative to the project directory" };

/** The only tools the loop offers: no shell, no network. */
export const TOOL_SPECS: Record<"Read" | "Write" | "Edit", ToolSpec> = {
  Read: {
    name: "Read",
    description: `Read a UTF-8 text file (at most ${READ_CAP} bytes).`,
    schema: { type: "object", properties: { path }, required: ["path"] },
  },
  Write: {
    name: "Write",
    description: "Create a file, or replace its whole content. Missing parent folders are created.",
    schema: {
      type: "object",
      properties: { path, content: { type: "string", description: "The complete new content" } },
      required: ["path", "content"],
    },
  },
  Edit: {
    name: "Edit",
    description: "Replace one exact string in a file. old_string must occur exactly once; include enough context to make it unique.",
    schema: {
      type: "object",
      properties: { path, old_string: { type: "string" }, new_string: { type: "string" } },
      required: ["path", "old_string", "new_string"],
    },
  },
};

/** read-only offers Read alone; edit and full offer all three (full adds nothing: there is nothing more to allow). */
export function toolsFor(mode: Mode): ToolSpec[] {
  return mode === "read-only" ? [TOOL_SPECS.Read] : [TOOL_SPECS.Read, TOOL_SPECS.Write, TOOL_SPECS.Edit];
}

const inputs = {
  Read: z.object({ path: z.string() }),
  Write: z.object({ path: z.string(), content: z.string() }),
  Edit: z.object({ path: z.string(), old_string: z.string(), new_string: z.string() }),
};

export interface ToolOutcome {
  output: string;
  isError: boolean;
}

/** Runs one tool call inside `root` (a realpath). Every refusal and failure comes back as isError, never as a throw. */
export function runTool(root: string, mode: Mode, name: string, input: unknown): ToolOutcome {
  try {
    if (!(name in inputs))
      throw new ToolError(
        `unknown tool ${JSON.stringify(name)}; the tools are ${toolsFor(mode)
          .map((t) => t.name)
          .join(", ")}`,
      );
    const tool = name as keyof typeof inputs;
    if (!toolsFor(mode).some((t) => t.name === tool)) throw new ToolError(`${tool} is not available in ${mode} mode`);
    if (typeof input === "object" && input !== null && UNPARSED in input)
      throw new ToolError("the tool input was not valid JSON (was it cut off by the output limit?)");
    const parsed = inputs[tool].safeParse(input);
    if (!parsed.success)
      throw new ToolError(
        `invalid input for ${tool}: ${parsed.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ")}`,
      );
    if (tool === "Read") return ok(read(root, parsed.data.path));
    if (tool === "Write") {
      const { path: p, content } = parsed.data as z.infer<typeof inputs.Write>;
      return ok(write(root, writable(root, mode, p), content));
    }
    const { path: p, old_string, new_string } = parsed.data as z.infer<typeof inputs.Edit>;
    return ok(edit(root, writable(root, mode, p), old_string, new_string));
  } catch (err) {
    const message = err instanceof ToolError ? err.message : `failed: ${(err as Error)?.message ?? String(err)}`;
    return { output: `Refused: ${message}`, isError: true };
  }
}

/** A path Write or Edit may change: edit mode leaves the repository's metadata (.git) alone, as the permission policy does. */
function writable(root: string, mode: Mode, p: string): string {
  if (mode !== "full" && inGitMetadata(root, resolve(root, p)))
    throw new ToolError(`${p} is inside .git: ${mode} mode does not change the repository's own metadata`);
  return p;
}

function ok(output: string): ToolOutcome {
  return { output, isError: false };
}

function read(root: string, p: string): string {
  const full = resolveInside(root, p);
  const buf = readRegular(root, full, READ_CAP);
  if (buf.subarray(0, 8192).includes(0)) throw new ToolError(`${display(root, full)} is a binary file (${buf.length} bytes)`);
  return buf.length ? buf.toString("utf8") : "(empty file)";
}

function write(root: string, p: string, content: string): string {
  const bytes = Buffer.from(content, "utf8");
  if (bytes.length > WRITE_CAP) throw new ToolError(`content is ${bytes.length} bytes, over the ${WRITE_CAP}-byte limit`);
  const full = resolveInside(root, p);
  const existed = replaceFile(root, full, bytes);
  return `${existed ? "Replaced" : "Created"} ${display(root, full)} (${bytes.length} bytes)`;
}

function edit(root: string, p: string, oldString: string, newString: string): string {
  if (!oldString) throw new ToolError("old_string is empty");
  if (oldString === newString) throw new ToolError("old_string and new_string are the same");
  const full = resolveInside(root, p);
  const text = readRegular(root, full, WRITE_CAP).toString("utf8");
  const count = occurrences(text, oldString);
  if (count !== 1) throw new ToolError(`old_string occurs ${count} times in ${display(root, full)}; it must occur exactly once`);
  const at = text.indexOf(oldString);
  const next = Buffer.from(text.slice(0, at) + newString + text.slice(at + oldString.length), "utf8");
  if (next.length > WRITE_CAP) throw new ToolError(`the edited file would be ${next.length} bytes, over the ${WRITE_CAP}-byte limit`);
  replaceFile(root, full, next);
  return `Edited ${display(root, full)}: replaced 1 occurrence`;
}

/** Overlapping occurrences too: "aa" occurs twice in "aaa", which is ambiguous. */
function occurrences(text: string, needle: string): number {
  let count = 0;
  for (let i = text.indexOf(needle); i !== -1; i = text.indexOf(needle, i + 1)) count++;
  return count;
}

/**
 * Writes a temporary file next to the target and renames it into place: a
 * reader never sees half a file, a hard link is broken rather than written
 * through, and the target's mode is kept. Only a regular file (or nothing) is
 * replaced; the folder is checked to be real and inside the root after it is made.
 */
function replaceFile(root: string, full: string, bytes: Buffer): boolean {
  const st = lstatOrUndefined(full);
  if (st && !st.isFile()) throw new ToolError(`${display(root, full)} is ${kindOf(st)}, not a regular file`);
  const dir = dirname(full);
  mkdirSync(dir, { recursive: true });
  if (realpathSync(dir) !== dir || !isInside(root, dir)) throw new ToolError(`${display(root, dir)} changed while it was written to`);
  const tmp = join(dir, `.od-write-${crypto.randomUUID()}.tmp`);
  try {
    const fd = openSync(tmp, "wx", 0o644);
    try {
      for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
    } finally {
      closeSync(fd);
    }
    if (st) chmodSync(tmp, st.mode & 0o7777);
    renameSync(tmp, full);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
  return st !== undefined;
}
