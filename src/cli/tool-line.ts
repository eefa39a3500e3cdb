/**
 * A tool call and its result in words, one line each, as Claude Code shows them: `✎ Write
 * hello.txt`, `$ npm test`, `⌕ Read src/a.ts`, `⌕ Grep "foo"`, `⇣ WebFetch https://…`, then
 * `✓ 12 lines`, `✓ wrote hello.txt` or `✗ exit 1: <the error's first line>`. Pure: a call's
 * `kind` and `paths` when the event has them, else what its name and input say (every agent
 * names and shapes its tools its own way: Claude's `file_path`, opencode's `filePath`, an ACP
 * agent's `locations` and a title for a name, Codex's `changes` and `/bin/bash -lc` commands).
 */

export type ToolKind = "read" | "edit" | "execute" | "search" | "fetch" | "think" | "other";

/** A `tool.call` as the formatter reads it; `kind` and `paths` are optional (events before they existed lack them). */
export interface ToolCall {
  name: string;
  input: unknown;
  kind?: string;
  paths?: string[];
}

const MARK: Record<ToolKind, string> = { read: "⌕", search: "⌕", edit: "✎", execute: "$", fetch: "⇣", think: "✻", other: "→" };

/** The longest a call or result line gets. */
const MAX = 160;

/** The call's kind: as the event says, else from its input (a command runs) and its name. */
export function kindOf(call: ToolCall): ToolKind {
  if (call.kind && call.kind in MARK) return call.kind as ToolKind;
  const name = call.name.toLowerCase();
  if (
    commandOf(call.input) !== undefined ||
    /^(bash|shell|sh|exec|execute|terminal|local_shell|run_shell_command|run_terminal_cmd)$|^ran\b/.test(name)
  )
    return "execute";
  if (/todo|think|plan/.test(name)) return "think";
  if (/search|grep|glob|find|^ls$|list/.test(name)) return "search";
  if (/fetch|url|http|browse/.test(name)) return "fetch";
  if (/writ|edit|creat|patch|replac|insert|delet|remov|rename|move|notebook/.test(name)) return "edit";
  if (/read|view|cat|open/.test(name)) return "read";
  return "other";
}

/** The call in words: its mark, its name, and what it acts on (a path relative to `cwd`, a command, a pattern, a URL). */
export function toolCallLine(call: ToolCall, cwd = ""): string {
  const kind = kindOf(call);
  const input = record(call.input);
  const name = call.name || "tool";
  if (kind === "execute") {
    // An ACP agent may give the command as the call's title, and nothing else.
    const command = commandOf(call.input) ?? (str(input.title) === call.name ? call.name : undefined);
    return clip(`$ ${command ?? name}`, MAX);
  }
  const paths = (call.paths?.length ? call.paths : pathsOf(input)).map((p) => relative(p, cwd));
  const named = (subject: string) => (subject && !name.includes(subject) ? `${name} ${subject}` : relativeIn(name, cwd));
  if (kind === "search") {
    const pattern = str(input.pattern) ?? str(input.query) ?? str(input.regex) ?? str(input.glob) ?? str(input.q);
    const where = paths[0] && paths[0] !== "." ? ` in ${paths[0]}` : "";
    return clip(`${MARK.search} ${pattern ? `${name} ${JSON.stringify(pattern)}${where}` : named(paths[0] ?? "")}`, MAX);
  }
  if (kind === "fetch") {
    // A web search is a fetch too (Codex's web_search): its query, quoted, where there is no address.
    const query = str(input.query) ?? str(input.q);
    const at = str(input.url) ?? str(input.uri) ?? paths[0];
    return clip(`${MARK.fetch} ${at === undefined && query ? `${name} ${JSON.stringify(query)}` : named(at ?? "")}`, MAX);
  }
  if (paths.length) {
    const more = paths.length > 1 ? ` (+${paths.length - 1} more)` : "";
    return clip(`${MARK[kind]} ${named(paths[0]!)}${more}`, MAX);
  }
  // A sub-agent (Claude Code's Task) says what it is for; a to-do list is its own plan event.
  return clip(`${MARK[kind]} ${named(kind === "think" ? (str(input.description) ?? "") : summary(input, name))}`, MAX);
}

/** The result in one line: `✗` and the error's first line (its exit status when it says one), or `✓` and what came of it. */
export function toolResultLine(call: ToolCall | undefined, result: { output: string; isError: boolean }, cwd = ""): string {
  const lines = result.output.split("\n").filter((l) => l.trim());
  if (result.isError) {
    const exit = /\bexit(?:ed)?(?: with)?(?: code| status)?:? (\d+)\b/i.exec(result.output.slice(0, 500))?.[1];
    const first = lines.find((l) => !/^\s*exit(?:ed)?(?: with)?(?: code| status)?:? \d+\s*$/i.test(l))?.trim();
    return clip(`✗ ${exit ? `exit ${exit}: ` : ""}${first ?? "failed"}`, MAX);
  }
  const kind = call ? kindOf(call) : "other";
  const paths = call ? (call.paths?.length ? call.paths : pathsOf(record(call.input))).map((p) => relative(p, cwd)) : [];
  if (kind === "edit" && paths.length) return clip(`✓ ${creates(call!) ? "wrote" : "edited"} ${paths.join(", ")}`, MAX);
  // A to-do list's answer is a receipt; a sub-agent's is its finding, worth its line.
  if (kind === "edit" || (kind === "think" && /todo|plan/i.test(call?.name ?? "")) || !lines.length) return "✓ done";
  // What was read is counted; a command's or a search's one line of output is worth showing.
  if (kind === "read" || lines.length > 1) return `✓ ${lines.length} line${lines.length > 1 ? "s" : ""}`;
  return clip(`✓ ${lines[0]!.trim()}`, 100);
}

/** Whether an edit makes its file: by its name (Write, create_file), or Codex's `changes` of kind add. */
function creates(call: ToolCall): boolean {
  if (/writ|creat|new/i.test(call.name)) return true;
  const changes = record(call.input).changes;
  return Array.isArray(changes) && changes.some((c) => record(c).kind === "add");
}

/** The command a call runs: a string, or an argv joined; a `sh -c` wrapper (Codex's `/bin/bash -lc …`) taken off. */
function commandOf(input: unknown): string | undefined {
  const r = record(input);
  const raw = Array.isArray(r.command) ? r.command.filter((a) => typeof a === "string").join(" ") : (str(r.command) ?? str(r.cmd));
  if (raw === undefined) return undefined;
  const wrapped = /^(?:\/(?:usr\/)?bin\/)?(?:ba|z)?sh -l?c (.+)$/s.exec(raw.trim())?.[1];
  if (!wrapped) return raw.trim();
  const quoted = /^(['"])(.*)\1$/s.exec(wrapped);
  return quoted ? quoted[2]! : wrapped;
}

const PATH_KEYS = ["file_path", "filePath", "filepath", "path", "file", "notebook_path", "target_file", "absolute_path", "absPath"];

/** The paths a call's input names, every shape the fixtures show: a path field, ACP `locations`, Codex `changes`, a list. */
function pathsOf(input: Record<string, unknown>): string[] {
  for (const key of PATH_KEYS) if (str(input[key])) return [str(input[key])!];
  for (const key of ["locations", "changes", "paths", "files"]) {
    const list = input[key];
    if (!Array.isArray(list)) continue;
    const found = list.map((x) => str(x) ?? str(record(x).path)).filter((p): p is string => Boolean(p));
    if (found.length) return found;
  }
  return [];
}

/** Something that says what an unknown tool is about: a description, a title, a query; else its input, compact. */
function summary(input: Record<string, unknown>, name: string): string {
  for (const key of ["description", "title", "query", "prompt", "name", "message"]) {
    const s = str(input[key]);
    if (s && s !== name) return s;
  }
  // An ACP agent's title repeats the name: nothing more to say.
  const rest = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== name));
  return Object.keys(rest).length ? (JSON.stringify(rest) ?? "") : "";
}

/** A path as seen from the run's folder. */
function relative(path: string, cwd: string): string {
  if (!cwd || !path.startsWith("/")) return path;
  if (path === cwd) return ".";
  return path.startsWith(`${cwd}/`) ? path.slice(cwd.length + 1) : path;
}

/** A title that names an absolute path ("Creating /work/project/hello.txt"), with the path made relative. */
function relativeIn(text: string, cwd: string): string {
  return cwd ? text.split(`${cwd}/`).join("") : text;
}

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function str(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() ? value : undefined;
}

function clip(text: string, max: number): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}
