import {
  asRecord,
  classifyStderr,
  defineAdapter,
  defineLinesProtocol,
  errorFromText,
  flag,
  type OdEventBody,
  parseVersion,
  str,
} from "../src/plugin.ts";

/**
 * Continue CLI (`@continuedev/cli`, `cn`) headless: `cn --format json -p`, the prompt on stdin
 * (`echo "hello" | cn -p`). Checked against 1.5.47: `--format json` prints ONE record when the
 * turn ends, `{"response","status":"success"}`, and a failure as `{"status":"error","message"}` on
 * stderr (exit 1); no session id, tool calls, usage or deltas reach stdout. `-p` goes last: cn
 * takes the word after `-p` for a prompt unless it is one of a few known options, and then ignores
 * stdin. Without `--model` the model is the first in ~/.continue/config.yaml; `--model` adds a
 * Continue Hub model by its slug (`owner/package`), which needs the hub.
 *
 * Modes, from cn's tool policies (`--allow`, `--exclude` override its defaults; checked live):
 * headless, cn allows every tool except Write/Edit/MultiEdit, Bash included. Its `--readonly` plan
 * mode still allows Bash, and `--exclude Bash` does not override that, so od does not use it:
 * read-only excludes Bash and the three writing tools; edit allows those and excludes Bash; full is
 * `--auto`. Writes are not confined to the working directory. A call to an excluded tool ends the
 * turn with no output at all.
 */
const AGENT = { name: "Continue", login: "configure a model in ~/.continue/config.yaml (apiKey), or run `cn login`" };
const WRITERS = ["Write", "Edit", "MultiEdit"];
const MODE_ARGS = {
  "read-only": ["Bash", ...WRITERS].flatMap((t) => ["--exclude", t]),
  edit: [...WRITERS.flatMap((t) => ["--allow", t]), "--exclude", "Bash"],
  full: ["--auto"],
} as const;

function parse(record: unknown, _state: unknown, line: string): OdEventBody[] {
  const r = asRecord(record);
  if (r?.status === "success" && typeof r.response === "string")
    return r.response ? [{ type: "text.delta", id: "answer", text: r.response }] : [];
  if (r?.status === "error") return [errorFromText(str(r.message) ?? "Continue reported an error", AGENT)];
  return [{ type: "raw", stream: "stdout", line }];
}

/** cn writes its failure as a JSON record on stderr: classify its message. */
function stderrMessage(tail: string): string {
  const last = tail.trim().split("\n").pop() ?? "";
  try {
    return str(asRecord(JSON.parse(last))?.message) ?? tail;
  } catch {
    return tail;
  }
}

export default defineAdapter({
  id: "continue",
  ...AGENT,
  homepage: "https://docs.continue.dev/cli/overview",
  install: "npm install -g @continuedev/cli",
  bin: "cn",
  // `cn --version` prints the bare version ("1.5.47").
  version: { args: ["--version"], parse: parseVersion },
  state: [
    "{CONTINUE_GLOBAL_DIR:-.continue}/", // sessions/, logs/cn.log, index/, permissions.yaml (observed in a live run); CONTINUE_GLOBAL_DIR in its bundle
  ],
  detect: { configDir: ".continue", npmPackage: "@continuedev/cli", timeoutMs: 15_000 },
  models: [],
  efforts: [],
  capabilities: { streaming: false, resume: false, readOnly: true, skills: "prompt" },
  prompt: { via: "stdin" },
  invoke: (ctx) => ({
    argv: ["--format", "json", ...flag("--model", ctx.model), ...MODE_ARGS[ctx.mode], "-p"],
    stdin: ctx.prompt,
  }),
  protocol: defineLinesProtocol({ createState: () => ({}), parse }),
  classify: ({ stderrTail }) => classifyStderr(stderrMessage(stderrTail), AGENT),
});
