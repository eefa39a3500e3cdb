import { closeSync, constants, fchmodSync, writeSync } from "node:fs";
import { resolve } from "node:path";
import type { BodyOf, Mode } from "../contract/events.ts";
import { z } from "../contract/zod.ts";
import { inGitMetadata } from "../os/cwd-paths.ts";
import { UNPARSED } from "../protocols/parse-helpers.ts";
import { pathsIn } from "../protocols/tool-facts.ts";
import { defineTool, type Tool, toolSpec } from "./define-tool.ts";
import { display, inParent, kindOf, readRegular, resolveInside, ToolError } from "./sandbox.ts";
import type { ToolSpec } from "./types.ts";

/** Read refuses larger files (about 64k tokens); Write and Edit refuse larger contents. */
export const READ_CAP = 256 * 1024;
export const WRITE_CAP = 1024 * 1024;

const path = z.string().describe("File path relative to the project directory");

const Read = defineTool({
  name: "Read",
  description: `Read a UTF-8 text file (at most ${READ_CAP} bytes).`,
  input: z.object({ path }),
  writes: false,
  kind: "read",
  run: ({ path: p }, { root }) => read(root, p),
});

const Write = defineTool({
  name: "Write",
  description: "Create a file, or replace its whole content. Missing parent folders are created.",
  input: z.object({ path, content: z.string().describe("The complete new content") }),
  writes: true,
  kind: "edit",
  run: ({ path: p, content }, { root, mode }) => write(root, writable(root, mode, p), content),
});

const Edit = defineTool({
  name: "Edit",
  description: "Replace one exact string in a file. old_string must occur exactly once; include enough context to make it unique.",
  input: z.object({ path, old_string: z.string(), new_string: z.string() }),
  writes: true,
  kind: "edit",
  run: ({ path: p, old_string, new_string }, { root, mode }) => edit(root, writable(root, mode, p), old_string, new_string),
});

/** The only tools the loop offers, in the order the model sees them: no shell, no network. */
const TOOLS: readonly Tool[] = [Read, Write, Edit];

/** What the model is shown of each tool, derived once from its declaration, on first use (every `od` start would pay for it). */
let specs: Map<Tool, ToolSpec> | undefined;

/** read-only offers what does not write (Read); edit and full offer all three (full adds nothing: there is nothing more to allow). */
function offered(mode: Mode): Tool[] {
  return TOOLS.filter((t) => mode !== "read-only" || !t.writes);
}

export function toolsFor(mode: Mode): ToolSpec[] {
  specs ??= new Map(TOOLS.map((t) => [t, toolSpec(t)]));
  return offered(mode).map((t) => specs!.get(t)!);
}

/** The tool.call for a call the model made: its kind from the tool's declaration, its file the input's `path` (relative to the project); an unknown tool is other. */
export function toolCallEvent(id: string, name: string, input: unknown): BodyOf<"tool.call"> {
  const tool = TOOLS.find((t) => t.name === name);
  const paths = tool ? pathsIn(input, ["path"]) : [];
  return { type: "tool.call", id, name, input, kind: tool?.kind ?? "other", ...(paths.length ? { paths } : {}) };
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

/**
 * A path Write or Edit may change: edit mode leaves the repository's metadata
 * (.git) alone, as the permission policy does. Checked on what the model asked
 * for and again on the resolved path, which is the one opened (no link followed).
 */
function writable(root: string, mode: Mode, p: string): string {
  if (mode !== "full" && inGitMetadata(root, resolve(root, p)))
    throw new ToolError(`${p} is inside .git: ${mode} mode does not change the repository's own metadata`);
  const full = resolveInside(root, p);
  if (mode !== "full" && inGitMetadata(root, full))
    throw new ToolError(`${p} is inside .git: ${mode} mode does not change the repository's own metadata`);
  return full;
}

function read(root: string, p: string): string {
  const full = resolveInside(root, p);
  const buf = readRegular(root, full, READ_CAP);
  if (buf.subarray(0, 8192).includes(0)) throw new ToolError(`${display(root, full)} is a binary file (${buf.length} bytes)`);
  return buf.length ? buf.toString("utf8") : "(empty file)";
}

function write(root: string, full: string, content: string): string {
  const bytes = Buffer.from(content, "utf8");
  if (bytes.length > WRITE_CAP) throw new ToolError(`content is ${bytes.length} bytes, over the ${WRITE_CAP}-byte limit`);
  const existed = replaceFile(root, full, bytes);
  return `${existed ? "Replaced" : "Created"} ${display(root, full)} (${bytes.length} bytes)`;
}

function edit(root: string, full: string, oldString: string, newString: string): string {
  if (!oldString) throw new ToolError("old_string is empty");
  if (oldString === newString) throw new ToolError("old_string and new_string are the same");
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

const NEW_FILE_MODE = 0o644 & ~process.umask();

/**
 * Writes a temporary file next to the target and renames it into place: a
 * reader never sees half a file, a hard link is broken rather than written
 * through, and the target's mode is kept. Only a regular file (or nothing) is
 * replaced. All of it happens beneath the folder's handle (inParent): the
 * folders are made, the file written and renamed there, never by path.
 */
function replaceFile(root: string, full: string, bytes: Buffer): boolean {
  return inParent(root, full, true, (dir, name) => {
    const st = dir.lstat(name);
    if (st && !st.isFile()) throw new ToolError(`${display(root, full)} is ${kindOf(st)}, not a regular file`);
    const tmp = `.od-write-${crypto.randomUUID()}.tmp`;
    const fd = dir.file([tmp], constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o644);
    try {
      try {
        for (let done = 0; done < bytes.length; ) done += writeSync(fd, bytes, done);
        fchmodSync(fd, st ? st.mode & 0o7777 : NEW_FILE_MODE); // new: as before (macOS's variadic openat gets no mode through ffi)
      } finally {
        closeSync(fd);
      }
      dir.rename(tmp, name);
    } catch (err) {
      try {
        dir.unlink(tmp);
      } catch {} // already gone
      throw err;
    }
    return st !== undefined;
  });
}
