// Scenario logic shared by every API: decide what to answer for one request.
import { isAbsolute, join } from "node:path";
import type { HttpFailure, Reply, Scenario, ToolSpec, Turn } from "./types.ts";

export const DEFAULT_TEXT = "STUB_CHAT_OK";
export const DEFAULT_FINAL_TEXT = "STUB_FILE_WRITTEN";
export const DEFAULT_THINKING = "Let me think about this step by step.";
/**
 * OpenAI's own answer to a rejected key (the masked key echoed back, no status in the text), which the
 * OpenAI-shaped APIs send unless a scenario names its own message; Anthropic and Gemini have theirs.
 */
export const DEFAULT_AUTH_MESSAGE =
  "Incorrect API key provided: od-live-***-key. You can find your API key at https://platform.openai.com/account/api-keys.";

/** Write-like tools, most specific first: claude Write, droid Create, pi/opencode write, gemini write_file, copilot create, codex apply_patch, cline editor. */
const WRITE_TOOLS = ["Write", "Create", "write", "write_file", "create", "WriteFile", "create_file", "apply_patch", "editor"];
const PATH_KEYS = ["file_path", "filePath", "filepath", "path", "absolute_path", "file", "filename"];
const CONTENT_KEYS = ["content", "file_text", "contents", "text", "data", "new_text"];

/** Split text into a few chunks (about 3) so streams carry several deltas. */
export function chunkText(text: string, parts = 3): string[] {
  if (text.length <= 1) return [text];
  const size = Math.max(1, Math.ceil(text.length / parts));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** Split text token by token (words with their following spaces). */
export function tokenize(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [text];
}

export function findWriteTool(tools: ToolSpec[]): ToolSpec | undefined {
  for (const name of WRITE_TOOLS) {
    const hit = tools.find((t) => t.name === name);
    if (hit) return hit;
  }
  return undefined;
}

/** Find the agent's working directory in the prompt text (claude, pi, opencode, gemini, qwen styles). */
export function findCwd(bodyText: string): string | undefined {
  const patterns = [
    /Primary working directory: ([^\n"\\<]+)/,
    /Current working directory: ([^\n"\\<]+)/,
    // Droid gives its folder as the output of a `pwd` in its environment block.
    /% pwd(?:\\n|\n)([^\n"\\<]+)/,
    /[Ww]orking directory: ([^\n"\\<]+)/,
    /<cwd>([^<]+)<\/cwd>/,
    /working in the directory: ([^\n"\\<]+)/,
    // Cline: "4. Working Directory: /tmp/…" in its <env> block.
    /Working Directory: ([^\n"\\<]+)/,
  ];
  for (const re of patterns) {
    const m = re.exec(bodyText);
    if (m?.[1]) return m[1].trim();
  }
  return undefined;
}

let callCounter = 0;
export function newId(prefix: string): string {
  callCounter += 1;
  return `${prefix}${Date.now().toString(36)}${callCounter.toString().padStart(4, "0")}`;
}

function text(t: string, thinking: string[] = [], delayMs = 0): Reply {
  return { kind: "text", chunks: chunkText(t), thinking, delayMs };
}

function writeCall(s: Extract<Scenario, { kind: "tool-write" }>, tool: ToolSpec, bodyText: string): Reply {
  const pathKey = PATH_KEYS.find((k) => tool.params.includes(k)) ?? "path";
  const contentKey = CONTENT_KEYS.find((k) => tool.params.includes(k)) ?? "content";
  let file = s.file;
  if (!isAbsolute(file)) {
    const cwd = findCwd(bodyText);
    if (cwd) file = join(cwd, file);
  }
  if (tool.freeform) return { kind: "tool", id: newId("call_"), name: tool.name, args: {}, input: addFilePatch(file, s.content) };
  return { kind: "tool", id: newId("call_"), name: tool.name, args: { [pathKey]: file, [contentKey]: s.content } };
}

/** codex's apply_patch grammar: one added file, every content line prefixed with "+". */
function addFilePatch(file: string, content: string): string {
  const lines = content
    .replace(/\n$/, "")
    .split("\n")
    .map((l) => `+${l}`);
  return ["*** Begin Patch", `*** Add File: ${file}`, ...lines, "*** End Patch"].join("\n");
}

/** Decide the reply for one parsed request under the current scenario. */
export function decide(s: Scenario, turn: Turn, bodyText: string): Reply {
  switch (s.kind) {
    case "chat":
      return text(s.text ?? DEFAULT_TEXT);
    case "slow":
      return { kind: "text", chunks: tokenize(s.text ?? "one two three four five"), thinking: [], delayMs: s.delayMs ?? 100 };
    case "thinking":
      return text(s.text ?? DEFAULT_TEXT, chunkText(s.thinking ?? DEFAULT_THINKING));
    case "stall":
      return { kind: "stall" };
    case "auth-error":
      return { kind: "auth-error", message: s.message };
    case "script": {
      const step = s.steps[Math.min(turn.assistantTurns ?? 0, s.steps.length - 1)];
      if (!step) return text(DEFAULT_TEXT);
      if ("text" in step) return text(step.text, step.thinking ? chunkText(step.thinking) : []);
      // A side request that wants structured output (Gemini's model router) gets text, not the script's call.
      if (turn.structured) return text(DEFAULT_TEXT);
      const [first, ...rest] = step.tools.map((t) => ({ id: newId("call_"), name: t.name, args: t.args }));
      return first ? { kind: "tool", ...first, more: rest } : text(DEFAULT_TEXT);
    }
    case "http-error":
      return decide(s.then ?? { kind: "chat" }, turn, bodyText);
    case "tool-write": {
      if (turn.hasToolResult) return text(s.finalText ?? DEFAULT_FINAL_TEXT);
      const tool = findWriteTool(turn.tools);
      if (!tool) return text(`No write tool is available, so I cannot create ${s.file}.`);
      return writeCall(s, tool, bodyText);
    }
  }
}

/** One-word summary of a reply for the request log. */
export function describe(r: Reply): string {
  return r.kind === "tool" ? `tool:${r.name}` : r.kind === "text" && r.thinking.length ? "thinking+text" : r.kind;
}

/** The failure to answer with when the scenario is http-error and `served` earlier requests have not used up `times`. */
export function httpFailure(s: Scenario, served: number): HttpFailure | undefined {
  if (s.kind !== "http-error" || served >= (s.times ?? Number.POSITIVE_INFINITY)) return undefined;
  const headers: Record<string, string> = {};
  if (s.retryAfter !== undefined) headers["retry-after"] = s.retryAfter;
  if (s.retryAfterMs !== undefined) headers["retry-after-ms"] = String(s.retryAfterMs);
  const message = s.message ?? (s.status === 429 ? "Rate limited (model stub)" : `Server error ${s.status} (model stub)`);
  return { status: s.status, message, headers };
}
