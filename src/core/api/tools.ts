import { chmodSync, closeSync, mkdirSync, openSync, realpathSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { z } from "zod";
import type { Mode } from "../events.ts";
import { inGitMetadata } from "../run/permissions.ts";
import { defineTool, type Tool, toolSpec } from "./define-tool.ts";
import { display, isInside, kindOf, lstatOrUndefined, readRegular, resolveInside, ToolError } from "./sandbox.ts";
import { type ToolSpec, UNPARSED } from "./types.ts";

/** Read refuses larger files (about 64k tokens); Write and Edit refuse larger contents. */
export const READ_CAP = 256 * 1024;
export const WRITE_CAP = 1024 * 1024;

const path = z.string().describe("File path relative to the project directory");

const Read = defineTool({
  name: "Read",
  description: `Read a UTF-8 text file (at most ${READ_CAP} bytes).`,
  input: z.object({ path }),
  writes: false,
  run: ({ path: p }, { root }) => read(root, p),
});

const Write = defineTool({
  name: "Write",
  description: "Create a file, or replace its whole content. Missing parent folders are created.",
  input: z.object({ path, content: z.string().describe("The complete new content") }),
  writes: true,
  run: ({ path: p, content }, { root, mode }) => write(root, writable(root, mode, p), content),
});

const Edit = defineTool({
  name: "Edit",
  description: "Replace one exact string in a file. old_string must occur exactly once; include enough context to make it unique.",
  input: z.object({ path, old_string: z.string(), new_string: z.string() }),
  writes: true,
  run: ({ path: p, old_string, new_string }, { root, mode }) => edit(root, writable(root, mode, p), old_string, new_string),
});

/** The only tools the loop offers, in the order the model sees them: no shell, no network. */
const TOOLS: readonly Tool[] = [Read, Write, Edit];

/** What the model is shown of each tool, derived once from its declaration. */
const SPECS = new Map(TOOLS.map((t) => [t, toolSpec(t)]));

/** read-only offers what does not write (Read); edit and full offer all three (full adds nothing: there is nothing more to allow). */
function offered(mode: Mode): Tool[] {
  return TOOLS.filter((t) => mode !== "read-only" || !t.writes);
}

export function toolsFor(mode: Mode): ToolSpec[] {
  return offered(mode).map((t) => SPECS.get(t)!);
}

export interface ToolOutcome {
  output: string;
  isError: boolean;
}

/** Runs one tool call inside `root` (a realpath). Every refusal and failure comes back as isError, never as a throw. */
export function runTool(root: string, mode: Mode, name: string, input: unknown): ToolOutcome {
  try {
    const tool = TOOLS.find((t) => t.name === name);
    if (!tool)
      throw new ToolError(
        `unknown tool ${JSON.stringify(name)}; the tools are ${offered(mode)
          .map((t) => t.name)
          .join(", ")}`,
      );
    if (!offered(mode).includes(tool)) throw new ToolError(`${tool.name} is not available in ${mode} mode`);
    if (typeof input === "object" && input !== null && UNPARSED in input)
      throw new ToolError("the tool input was not valid JSON (was it cut off by the output limit?)");
    const parsed = tool.input.safeParse(input);
    if (!parsed.success)
      throw new ToolError(
        `invalid input for ${tool.name}: ${parsed.error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ")}`,
      );
    return { output: tool.run(parsed.data, { root, mode }), isError: false };
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
