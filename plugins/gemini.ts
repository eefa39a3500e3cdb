import {
  asRecord,
  classifyStderr,
  classifyText,
  defineAdapter,
  defineLinesProtocol,
  errorFromText,
  flag,
  num,
  type OdEventBody,
  parseVersion,
  str,
  todosAt,
  toolCallEvents,
  toolTable,
} from "../src/plugin.ts";

/**
 * Gemini CLI headless: the prompt on stdin (a non-TTY stdin makes it non-interactive; `-p` would
 * only be appended to it), `--output-format stream-json` records on stdout. `--skip-trust` trusts
 * the working directory for this session only: without it a headless run in a folder the user has
 * not trusted exits 55 before doing anything.
 */
export const AGENT = { name: "Gemini CLI", login: "run `gemini` and pick a sign-in method (/auth), or set GEMINI_API_KEY" };

/**
 * Gemini CLI's login without starting it (getAuthTypeFromEnv, Storage.getOAuthCredsPath and
 * security.auth.selectedType in its 0.61 bundle): the variables that pick an auth type, a Google
 * login's oauth_creds.json, or a sign-in method chosen in settings.json. Its encrypted storage can
 * keep the login in a keychain instead, so their absence leaves the login unknown.
 */
export const AUTH = {
  envKeys: [
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "GOOGLE_GENAI_USE_GCA=true",
    "GOOGLE_GENAI_USE_VERTEXAI=true",
    "CLOUD_SHELL=true",
    "GEMINI_CLI_USE_COMPUTE_ADC=true",
  ],
  files: [
    { path: "{GEMINI_CLI_HOME:-.}/.gemini/oauth_creds.json" },
    { path: "{GEMINI_CLI_HOME:-.}/.gemini/settings.json", key: "security.auth.selectedType" },
    { path: "{GEMINI_CLI_HOME:-.}/.gemini/settings.json", key: "selectedAuthType" }, // before settings were nested
  ],
};

/** The CLI itself, shared with `gemini-acp` (the same binary over ACP). */
export const CLI = {
  homepage: "https://github.com/google-gemini/gemini-cli",
  install: "npm install -g @google/gemini-cli",
  bin: "gemini",
  version: { args: ["--version"], parse: parseVersion },
  // tmp/<project>/chats and logs, history/, projects.json (by a temp file and a .lock folder beside it,
  // all inside ~/.gemini), settings.json (observed in a live run); GEMINI_CLI_HOME is the folder that
  // holds .gemini instead of HOME (docs/reference/configuration.md in its package).
  state: ["{GEMINI_CLI_HOME:-.}/.gemini/"],
};

const APPROVAL_MODE = { "read-only": "plan", edit: "auto_edit", full: "yolo" } as const;

/** Gemini CLI's tools (its `tool_name`s): kind, the input keys naming files (older releases say absolute_path, path), the todo list. */
export const geminiTools = toolTable({
  read_file: { kind: "read", paths: ["file_path", "absolute_path"] },
  read_many_files: { kind: "read", paths: ["paths"] },
  write_file: { kind: "edit", paths: ["file_path"] },
  replace: { kind: "edit", paths: ["file_path"] },
  run_shell_command: { kind: "execute" },
  glob: { kind: "search", paths: ["dir_path", "path"] },
  search_file_content: { kind: "search", paths: ["dir_path", "path"] },
  grep_search: { kind: "search", paths: ["dir_path", "path"] },
  list_directory: { kind: "search", paths: ["dir_path", "path"] },
  web_fetch: { kind: "fetch" },
  google_web_search: { kind: "fetch" },
  write_todos: { kind: "think", plan: todosAt() },
});

type Rec = Record<string, unknown>;

interface GeminiState {
  /** Id of the assistant text part now streaming; a tool call or result starts a new one. */
  text?: string;
  parts: number;
  /** An error was already reported: a closing `result` with status "error" repeats it. */
  failed: boolean;
}

function parse(record: unknown, state: GeminiState, line: string): OdEventBody[] {
  const r = asRecord(record);
  switch (r?.type) {
    case "init":
      return str(r.session_id) ? [{ type: "session", sessionId: str(r.session_id)!, model: str(r.model) }] : [];
    case "message": {
      if (r.role === "user") return []; // the prompt, echoed
      const text = str(r.content);
      if (r.role !== "assistant" || !text) return [];
      state.text ??= `text-${++state.parts}`;
      return [{ type: "text.delta", id: state.text, text }];
    }
    case "tool_use": {
      state.text = undefined;
      const name = str(r.tool_name) ?? "tool";
      const input = r.parameters ?? {};
      return toolCallEvents(str(r.tool_id) ?? "", name, input, geminiTools(name, input));
    }
    case "tool_result": {
      state.text = undefined;
      const error = str(asRecord(r.error)?.message);
      return [{ type: "tool.result", id: str(r.tool_id) ?? "", output: str(r.output) ?? error ?? "", isError: r.status === "error" }];
    }
    case "error":
      // `severity: "warning"` (loop detected, a blocked step) lets the run go on.
      if (r.severity === "warning") return [{ type: "status", label: "warning", detail: str(r.message) }];
      return fail(state, str(r.message) ?? "Gemini CLI reported an error");
    case "result":
      return result(r, state);
    default:
      return [{ type: "raw", stream: "stdout", line }];
  }
}

function result(r: Rec, state: GeminiState): OdEventBody[] {
  state.text = undefined;
  const s = asRecord(r.stats);
  const events: OdEventBody[] = [
    { type: "usage", inputTokens: num(s?.input_tokens), outputTokens: num(s?.output_tokens), cacheRead: num(s?.cached), source: "run" },
  ];
  // An API error ends the turn here (the process then exits with the HTTP status); so can an empty answer.
  if (r.status === "error")
    for (const e of fail(state, apiErrorText(str(asRecord(r.error)?.message) ?? "Gemini CLI ended the turn with an error"))) events.push(e);
  return events;
}

function fail(state: GeminiState, message: string): OdEventBody[] {
  if (state.failed) return [];
  state.failed = true;
  return [errorFromText(message, AGENT)];
}

/** `[API Error: {"error":{"code":400,"message":"…","status":"…","details":[{"reason":"API_KEY_INVALID"}]}}]` -> its message, status and reason. */
function apiErrorText(message: string): string {
  const inner = /^\[API Error: (.*)\]$/s.exec(message)?.[1];
  if (!inner) return message;
  try {
    const e = asRecord(asRecord(JSON.parse(inner))?.error);
    const reasons = (Array.isArray(e?.details) ? e.details : []).flatMap((d) => str(asRecord(d)?.reason) ?? []);
    const tags = [num(e?.code), str(e?.status), ...reasons].filter((t) => t !== undefined);
    return str(e?.message) ? `${str(e?.message)}${tags.length ? ` (${tags.join(" ")})` : ""}` : message;
  } catch {
    return message;
  }
}

/** The first stderr line that is not one of gemini's start-up notices. */
function firstWords(stderr: string): string | undefined {
  return stderr
    .split("\n")
    .map((l) => l.replace(/\u001b\[[0-9;]*m/g, "").trim())
    .find((l) => l && !/^(Warning: 256-color|Ripgrep is not available|\[STARTUP\]|Approval mode overridden|YOLO mode is enabled)/.test(l));
}

export default defineAdapter({
  id: "gemini",
  ...AGENT,
  ...CLI,
  detect: { configDir: ".gemini", npmPackage: "@google/gemini-cli", auth: AUTH },
  // The `--model` aliases Gemini CLI resolves itself (auto routes between pro and flash).
  models: ["auto", "pro", "flash", "flash-lite"],
  efforts: [], // thinking is a settings.json matter; there is no flag
  // Gemini CLI loads GEMINI.md from the working directory as context.
  // No MCP servers: Gemini CLI reads no settings file of a run's own. Its system defaults file
  // (GEMINI_CLI_SYSTEM_DEFAULTS_PATH) is skipped unless root owns it and every folder above it and none
  // is writable by others (0.61.0: "Security Warning: Skipping system defaults file"); the user's and the
  // workspace's files are theirs. gemini-acp takes servers in its session/new.
  capabilities: { streaming: true, resume: true, readOnly: true, skills: "file" },
  skillTarget: "GEMINI.md",
  roleTarget: "GEMINI.md",
  prompt: { via: "stdin" },
  invoke: (ctx) => ({
    argv: [
      "--output-format",
      "stream-json",
      "--skip-trust",
      ...flag("--model", ctx.model),
      ...flag("--resume", ctx.resume),
      "--approval-mode",
      APPROVAL_MODE[ctx.mode],
    ],
    stdin: ctx.prompt,
  }),
  protocol: defineLinesProtocol({ createState: (): GeminiState => ({ parts: 0, failed: false }), parse }),
  // Gemini's own exit codes: 41 auth, 42 bad input (e.g. an unknown --resume id), 55 untrusted folder;
  // an API error exits with its HTTP status & 0xFF (400 -> 144), after a `result` the parser already reported.
  classify: ({ exitCode, stderrTail }) => {
    const said = firstWords(stderrTail) ?? `Gemini CLI exited with code ${exitCode}`;
    if (exitCode === 41) return { ...classifyText(said, AGENT), code: "AGENT_AUTH_REQUIRED", hint: `Log in: ${AGENT.login}` };
    if (exitCode === 42)
      return {
        code: "INVALID_REQUEST",
        message: said,
        hint: "For --resume, use a session id from a run in the same working directory (see `gemini --list-sessions`).",
      };
    if (exitCode === 55)
      return {
        code: "INVALID_REQUEST",
        message: said,
        hint: "Trust the folder in an interactive `gemini` session, or set GEMINI_CLI_TRUST_WORKSPACE=true.",
      };
    const status = /\bstatus: (\d{3})\b/.exec(stderrTail)?.[1];
    if (status && (Number(status) & 0xff) === exitCode) return classifyText(`HTTP ${status}: ${said}`, AGENT);
    return classifyStderr(stderrTail, AGENT);
  },
});
