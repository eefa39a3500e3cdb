import { asRecord, errorFromText, num, type OdEventBody, str, textOf, todosAt, toolCallEvents, toolTable } from "../../src/plugin.ts";

/**
 * Factory Droid's `droid exec --output-format stream-json` records (checked against 0.225.2):
 * `system`/`init` (session_id, model), `message` (the user's prompt echoed, then each assistant
 * message whole: no deltas), `reasoning` (written twice for one message when the provider sends
 * both reasoning content and a thinking block), `tool_call` (toolName, parameters), `tool_result`
 * (value, or `error.message` with isError), `error` (source `agent_loop` for the model's failure,
 * then `cli` "Exec failed"), and a closing `completion` with the run's token usage.
 */

export const AGENT = {
  name: "Factory Droid",
  login: "run `droid` and sign in, or set FACTORY_API_KEY (a custom model in ~/.factory/settings.json takes its own apiKey)",
};

type Rec = Record<string, unknown>;

/** Droid's tools (its `toolName`s): kind, the parameters naming files, the todo list. */
export const droidTools = toolTable({
  Read: { kind: "read", paths: ["file_path"] },
  Create: { kind: "edit", paths: ["file_path"] },
  Edit: { kind: "edit", paths: ["file_path"] },
  MultiEdit: { kind: "edit", paths: ["file_path"] },
  ApplyPatch: { kind: "edit" },
  Execute: { kind: "execute" },
  LS: { kind: "search", paths: ["directory_path"] },
  Grep: { kind: "search", paths: ["folder", "path"] },
  Glob: { kind: "search", paths: ["folder", "path"] },
  FetchUrl: { kind: "fetch" },
  WebSearch: { kind: "fetch" },
  Task: { kind: "think" },
  TodoWrite: { kind: "think", plan: todosAt() },
});

export interface DroidState {
  /** Reasoning already shown, by message id and text (droid repeats it). */
  thoughts: Set<string>;
  /** A model failure was reported: the CLI's "Exec failed" after it adds nothing. */
  failed: boolean;
  n: number;
}

export const createState = (): DroidState => ({ thoughts: new Set(), failed: false, n: 0 });

export function parse(record: unknown, state: DroidState, line: string): OdEventBody[] {
  const r = asRecord(record);
  switch (r?.type) {
    case "system": {
      const sessionId = str(r.session_id);
      return r.subtype === "init" && sessionId ? [{ type: "session", sessionId, model: str(r.model) }] : [];
    }
    case "message": {
      const text = str(r.text);
      if (r.role !== "assistant" || !text) return [];
      return [{ type: "text.delta", id: str(r.id) ?? `m${++state.n}`, text }];
    }
    case "reasoning":
      return reasoning(r, state);
    case "tool_call": {
      const id = str(r.id);
      const name = str(r.toolName) ?? str(r.toolId) ?? "tool";
      const input = r.parameters ?? {};
      return id ? toolCallEvents(id, name, input, droidTools(name, input)) : [];
    }
    case "tool_result": {
      const id = str(r.id);
      if (!id) return [];
      const isError = r.isError === true;
      const output = isError ? (str(asRecord(r.error)?.message) ?? textOf(r.value)) : textOf(r.value);
      return [{ type: "tool.result", id, output, isError }];
    }
    case "error":
      return error(r, state);
    case "completion":
      return usage(asRecord(r.usage));
    default:
      return [{ type: "raw", stream: "stdout", line }];
  }
}

function reasoning(r: Rec, state: DroidState): OdEventBody[] {
  const text = str(r.text);
  const id = str(r.id) ?? `t${++state.n}`;
  if (!text?.trim() || state.thoughts.has(`${id}\n${text}`)) return [];
  state.thoughts.add(`${id}\n${text}`);
  return [{ type: "thinking.delta", id: `${id}:thinking`, text }];
}

function error(r: Rec, state: DroidState): OdEventBody[] {
  const message = (str(r.message) ?? "").replace(/^Error:\s*/, "");
  // The CLI's closing "Exec failed" only repeats a failure already reported.
  if (state.failed && /^Exec failed$/i.test(message)) return [];
  state.failed = true;
  if (/Authentication failed|FACTORY_API_KEY/i.test(message))
    return [{ type: "error", code: "AGENT_AUTH_REQUIRED", message, hint: `Log in: ${AGENT.login}`, retryable: false }];
  return [errorFromText(message || "Droid reported an error", AGENT)];
}

function usage(u: Rec | undefined): OdEventBody[] {
  if (!u) return [];
  return [
    {
      type: "usage",
      source: "run",
      inputTokens: num(u.input_tokens),
      outputTokens: num(u.output_tokens),
      cacheRead: num(u.cache_read_input_tokens),
      cacheWrite: num(u.cache_creation_input_tokens),
      reasoningTokens: num(u.thinking_tokens),
    },
  ];
}
