import { classifyStderr, defineAdapter, defineLinesProtocol, errorFromText, flag, type OdEventBody } from "../src/plugin.ts";

/**
 * Aider (a Python package: `aider-chat` on PyPI, not on npm) with `--message-file`: it answers once and
 * exits, printing plain text on stdout. Its own notices share stdout with the answer: a banner
 * ("Aider v…", "Model: …", "Git repo: …"), a reasoning model's "► **THINKING**" and
 * "► **ANSWER**" sections, "Applied edit to <file>", a "Tokens: … Cost: …" line after each reply,
 * and litellm errors ("litellm.AuthenticationError: …"). Those become status, thinking, tool,
 * usage and error events; every other line is answer text.
 * Modes: read-only is ask mode plus --dry-run; edit lets aider edit without confirming anything
 * for it; `--yes-always` only in full.
 */
const AGENT = { name: "Aider", login: "set the provider's API key (e.g. OPENAI_API_KEY or ANTHROPIC_API_KEY), or pass --api-key" };

const MODES = {
  "read-only": ["--chat-mode", "ask", "--dry-run"],
  edit: [],
  full: ["--yes-always"],
} as const;

const BANNER =
  /^(Aider v\d|(Main model|Model|Weak model|Editor model|Git repo|Repo-map):|Added .+ to the chat|Warning\b|You can skip this check|https:\/\/aider\.chat\/)/;
const SEPARATOR = /^-{6,}$/;
/** litellm errors aider retries by itself (its EXCEPTIONS table); any other one ends the reply. */
const RETRIED =
  /^(APIConnectionError|APIError|APIResponseValidationError|AzureOpenAIError|BudgetExceededError|InternalServerError|RateLimitError|ServiceUnavailableError|Timeout)$/;

interface AiderState {
  /** Where stdout is: the startup banner, a reasoning section, or the answer. */
  phase: "banner" | "thinking" | "answer";
  /** Just after a section marker, whose blank line is layout, not content. */
  marker: boolean;
  edits: number;
}

/** "2.6k" -> 2600, "1.2M" -> 1200000. */
function count(text: string | undefined): number | undefined {
  const m = text?.match(/^([\d.,]+)([kM]?)$/);
  if (!m) return undefined;
  const n = Number(m[1]!.replaceAll(",", ""));
  return Number.isFinite(n) ? Math.round(n * (m[2] === "k" ? 1e3 : m[2] === "M" ? 1e6 : 1)) : undefined;
}

/** "Tokens: 216k sent, 108k cache write, 1.4k received. Cost: $0.75 message, $0.79 session." */
function usage(line: string): OdEventBody {
  const part = (label: string) => count(line.match(new RegExp(`([\\d.,]+[kM]?) ${label}`))?.[1]);
  const cost = line.match(/Cost: \$([\d.]+) message/)?.[1];
  return {
    type: "usage",
    inputTokens: part("sent"),
    outputTokens: part("received"),
    cacheRead: part("cache hit"),
    cacheWrite: part("cache write"),
    costUsd: cost === undefined ? undefined : Number(cost),
    source: "turn",
  };
}

function notice(line: string, state: AiderState): OdEventBody[] | undefined {
  const litellm = line.match(/^litellm\.(\w+):/);
  if (litellm) return RETRIED.test(litellm[1]!) ? [{ type: "status", label: "retrying", detail: line }] : [errorFromText(line, AGENT)];
  if (/^The API provider |^Retrying in [\d.]+ seconds/.test(line)) return [{ type: "status", label: "provider", detail: line }];
  if (line.startsWith("Tokens: ")) return [usage(line)];
  const section = line.match(/^► \*\*(THINKING|ANSWER)\*\*$/);
  if (section) {
    state.phase = section[1] === "THINKING" ? "thinking" : "answer";
    state.marker = true;
    return [];
  }
  const edit = line.match(/^Applied edit to (.+)$/);
  if (!edit) return undefined;
  const id = `aider-edit-${++state.edits}`;
  return [
    // Aider's only tool-like act: an edit it applied to the file it names.
    { type: "tool.call", id, name: "edit", input: { path: edit[1] }, kind: "edit", paths: [edit[1]!] },
    { type: "tool.result", id, output: line, isError: false },
  ];
}

function parse(record: unknown, state: AiderState): OdEventBody[] {
  const line = String(record);
  const known = notice(line, state);
  if (known) return known;
  const afterMarker = state.marker;
  state.marker = false;
  if (afterMarker && !line.trim()) return [];
  if (state.phase !== "answer" && SEPARATOR.test(line)) return [];
  if (state.phase === "banner") {
    if (!line.trim()) return [];
    if (BANNER.test(line)) return [{ type: "status", label: "aider", detail: line }];
    state.phase = "answer";
  }
  const type = state.phase === "thinking" ? "thinking.delta" : "text.delta";
  return [{ type, id: state.phase, text: `${line}\n` }];
}

export default defineAdapter({
  id: "aider",
  ...AGENT,
  homepage: "https://aider.chat/",
  install: "python -m pip install aider-install && aider-install",
  bin: "aider",
  version: { args: ["--version"], parse: (out) => out.match(/\d+\.\d+\.\d+/)?.[0] },
  // Aider also writes .aider.chat.history.md and .aider.input.history in the working directory
  // (no git here: --no-git): in read-only under the kernel sandbox they go to the run's private
  // folder instead (refused there, Aider warns on stdout, which would read as answer text).
  state: [
    ".aider/", // analytics.json, installs.json, caches/ (github.com/Aider-AI/aider: aider/analytics.py, aider/versioncheck.py, aider/models.py)
  ],
  models: [], // `--model` takes any LiteLLM model id; `aider --list-models <part>` searches them
  efforts: [], // `--reasoning-effort` passes any value through to the provider
  capabilities: { streaming: true, resume: false, readOnly: true, skills: "prompt" },
  // `--message-file FILE` (-f): the prompt from a file, so neither argv nor a shell ever holds it.
  prompt: { via: "file" },
  invoke: (ctx) => ({
    argv: [
      // The studied headless flag set: plain output, no git repo prompt, no commits, no shell
      // suggestions, no model-metadata warning; plus no update check or release-notes question.
      "--no-pretty",
      "--no-git",
      "--no-auto-commits",
      "--no-suggest-shell-commands",
      "--no-show-model-warnings",
      "--no-check-update",
      "--no-show-release-notes",
      ...flag("--model", ctx.model),
      ...MODES[ctx.mode],
      ...(ctx.mode === "read-only" && ctx.tmpDir
        ? ["--chat-history-file", `${ctx.tmpDir}/aider.chat.history.md`, "--input-history-file", `${ctx.tmpDir}/aider.input.history`]
        : []),
      "--message-file",
      ctx.promptFile ?? "",
    ],
  }),
  protocol: defineLinesProtocol({ format: "text", createState: (): AiderState => ({ phase: "banner", marker: false, edits: 0 }), parse }),
  classify: ({ stderrTail }) => classifyStderr(stderrTail, AGENT),
});
