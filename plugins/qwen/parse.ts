import {
  arr,
  asRecord,
  type ClaudeStreamState,
  claudeStream,
  errorOnce,
  num,
  type OdEventBody,
  parseToolInput,
  parseVersion,
  str,
  todosAt,
  toolCallOnce,
  toolTable,
} from "../../src/plugin.ts";

/**
 * Qwen Code's `--output-format stream-json --include-partial-messages` records. They look like
 * Claude Code's, but differ where it matters: one `message_start` is followed by several
 * content blocks that all reuse index 0, each closed by its own `assistant` record with a fresh
 * id; and a failed model call is assistant text `[API Error: 401 …]` (older releases exit 0 and
 * report success), so that text becomes an error, never assistant output.
 */

export const AGENT = {
  name: "Qwen Code",
  login: "run `qwen` and type /auth, or set OPENAI_API_KEY (with OPENAI_BASE_URL and OPENAI_MODEL)",
};

/** The CLI itself, shared with `qwen-acp` (the same binary over ACP). */
export const CLI = {
  homepage: "https://github.com/QwenLM/qwen-code",
  install: "npm install -g @qwen-code/qwen-code",
  bin: "qwen",
  version: { args: ["--version"], parse: parseVersion },
  state: [
    "{QWEN_HOME:-.qwen}/", // projects/<cwd>/chats, tmp/, usage/, extension-store/, installation_id, settings.json rewritten (observed in a live run); QWEN_HOME (docs/configuration/settings.md in its package)
    "{QWEN_RUNTIME_DIR}/", // conversations, logs and todos when moved out of QWEN_HOME (ditto)
  ],
};

/** Qwen Code's tools (its own names, inherited from Gemini CLI's): kind, the input keys naming files, the todo list. */
export const qwenTools = toolTable({
  read_file: { kind: "read", paths: ["absolute_path", "file_path"] },
  read_many_files: { kind: "read", paths: ["paths"] },
  write_file: { kind: "edit", paths: ["file_path"] },
  edit: { kind: "edit", paths: ["file_path"] },
  replace: { kind: "edit", paths: ["file_path"] },
  run_shell_command: { kind: "execute" },
  grep_search: { kind: "search", paths: ["path"] },
  search_file_content: { kind: "search", paths: ["path"] },
  glob: { kind: "search", paths: ["path"] },
  list_directory: { kind: "search", paths: ["path"] },
  web_fetch: { kind: "fetch" },
  web_search: { kind: "fetch" },
  task: { kind: "think" },
  todo_write: { kind: "think", plan: todosAt() },
});

type Rec = Record<string, unknown>;
const API_ERROR = /^\[(API Error: [\s\S]*?)\]?$/;

interface Part {
  id: string;
  type: string;
  toolId?: string;
  name?: string;
  json: string;
  /** The input the block started with (some records carry it whole there, with no deltas after). */
  input?: unknown;
  /** Text already streamed for this part. */
  started?: boolean;
  /** A text part that turned out to be qwen's `[API Error: …]` notice. */
  error?: boolean;
}

type QwenState = ClaudeStreamState & {
  /** Open content blocks by index (qwen reuses index 0 for every block of a message). */
  parts: Map<number, Part>;
  /** Text or thinking streamed as deltas since the last `assistant` record, which repeats it. */
  streamedSinceWrapper: boolean;
};

export const { createState, parse } = claudeStream({
  agent: AGENT,
  state: () => ({ parts: new Map<number, Part>(), streamedSinceWrapper: false }),
  records: {
    stream_event: (r, state, line) => streamEvent(asRecord(r.event), state, line),
    assistant: (r, state) => assistant(asRecord(r.message), state),
  },
  // The closing `result` repeats an error the stream already reported.
  errorsOnce: true,
  tools: qwenTools,
  resultError: (r) => {
    const text = str(asRecord(r.error)?.message) ?? str(r.result) ?? "";
    if (r.is_error !== true && !API_ERROR.test(text)) return undefined;
    return unwrap(text || `Qwen Code run failed: ${str(r.subtype) ?? "error"}`);
  },
});

function streamEvent(e: Rec | undefined, state: QwenState, line: string): OdEventBody[] {
  switch (e?.type) {
    case "content_block_start": {
      const b = asRecord(e.content_block);
      state.parts.set(num(e.index) ?? 0, {
        id: `p${++state.n}`,
        type: str(b?.type) ?? "",
        toolId: str(b?.id),
        name: str(b?.name),
        json: "",
        input: b?.input,
      });
      return [];
    }
    case "content_block_delta":
      return delta(asRecord(e.delta), state.parts.get(num(e.index) ?? 0), state);
    case "content_block_stop": {
      const part = state.parts.get(num(e.index) ?? 0);
      return part?.type === "tool_use" && part.toolId
        ? toolCallOnce(state, part.toolId, part.name, parseToolInput(part.json, part.input), qwenTools)
        : [];
    }
    case "goal_state": {
      const goal = asRecord(asRecord(e.goal_state)?.goal);
      return goal ? [{ type: "status", label: "goal", detail: [str(goal.status), str(goal.objective)].filter(Boolean).join(": ") }] : [];
    }
    case "message_start":
    case "message_delta":
    case "message_stop":
      return [];
    default:
      return [{ type: "raw", stream: "stdout", line }];
  }
}

function delta(d: Rec | undefined, part: Part | undefined, state: QwenState): OdEventBody[] {
  if (!part) return [];
  const text = d?.type === "text_delta" ? str(d.text) : d?.type === "thinking_delta" ? str(d.thinking) : undefined;
  if (d?.type === "input_json_delta") part.json += str(d.partial_json) ?? "";
  if (!text || part.error) return [];
  state.streamedSinceWrapper = true;
  if (d?.type === "thinking_delta") return [{ type: "thinking.delta", id: part.id, text }];
  // qwen writes its API error notice as the whole text of a block.
  if (!part.started && API_ERROR.test(text)) {
    part.error = true;
    return errorOnce(state, unwrap(text), AGENT);
  }
  part.started = true;
  return [{ type: "text.delta", id: part.id, text }];
}

function assistant(message: Rec | undefined, state: QwenState): OdEventBody[] {
  const streamed = state.streamedSinceWrapper;
  state.streamedSinceWrapper = false;
  return arr(message?.content).flatMap((b): OdEventBody[] => {
    const block = asRecord(b);
    if (block?.type === "tool_use") return toolCallOnce(state, str(block.id) ?? "", str(block.name), block.input, qwenTools);
    if (streamed) return [];
    const text = str(block?.text);
    if (block?.type === "text" && text)
      return API_ERROR.test(text) ? errorOnce(state, unwrap(text), AGENT) : [{ type: "text.delta", id: `p${++state.n}`, text }];
    if (block?.type === "thinking" && str(block.thinking))
      return [{ type: "thinking.delta", id: `p${++state.n}`, text: str(block.thinking)! }];
    return [];
  });
}

/** The notice inside qwen's `[API Error: …]` brackets. */
function unwrap(text: string): string {
  return API_ERROR.exec(text)?.[1] ?? text;
}
