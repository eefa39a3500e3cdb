import { classifyStderr, defineAdapter, flag } from "../src/plugin.ts";

/** pi has no permission prompts: its tools run directly, so each mode is a tool allow-list. */
const TOOLS_BY_MODE = {
  "read-only": "read,grep,find,ls",
  edit: "read,grep,find,ls,edit,write",
} as const;

/** `provider  model  context ...` rows of `pi --list-models` as provider/model ids. */
export function parseModelTable(output: string): string[] {
  return output
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols.length >= 2 && cols[0] !== "provider" && /^[\w.-]+$/.test(cols[0]!) && /^[\w.:@/-]+$/.test(cols[1]!))
    .map((cols) => `${cols[0]}/${cols[1]}`);
}

const PI = { name: "Pi", login: "run `pi` and type /login, or set the provider's API key" };

export default defineAdapter({
  id: "pi",
  ...PI,
  homepage: "https://github.com/badlogic/pi-mono",
  install: "npm install -g @mariozechner/pi-coding-agent",
  bin: "pi",
  // `--model provider/id`; pi lists what it can reach with `pi --list-models` (on stderr).
  models: [],
  state: [
    "{PI_CODING_AGENT_DIR:-.pi/agent}/", // sessions/--<cwd>--/<time>_<id>.jsonl, auth.json (+ .lock), settings.json.lock (observed in a live run)
    "{PI_CODING_AGENT_SESSION_DIR}/", // sessions when moved (`pi --help`: --session-dir, PI_CODING_AGENT_SESSION_DIR)
  ],
  detect: {
    configDir: ".pi",
    npmPackage: "@mariozechner/pi-coding-agent",
    // `pi --list-models` (on stderr) lists only providers it has credentials for: a login or key in
    // auth.json (`{}` until then) or a provider of models.json.
    auth: {
      files: [
        { path: "{PI_CODING_AGENT_DIR:-.pi/agent}/auth.json" },
        { path: "{PI_CODING_AGENT_DIR:-.pi/agent}/models.json", key: "providers" },
      ],
      args: ["--list-models"],
      classify: (output) => (/no models available/i.test(output) ? "missing" : /^provider\s+model/m.test(output) ? "ok" : "unknown"),
    },
    models: { args: ["--list-models"], parse: parseModelTable },
  },
  efforts: ["off", "minimal", "low", "medium", "high", "xhigh"],
  // pi loads skills from .pi/skills in the working directory (docs/skills.md).
  // Images go in the RPC prompt command (`images`).
  capabilities: { streaming: true, resume: true, readOnly: true, images: true, skills: "native" },
  skillTarget: ".pi/skills",
  prompt: { via: "protocol" },
  invoke: (ctx) => ({
    argv: [
      "--mode",
      "rpc",
      ...flag("--model", ctx.model),
      ...flag("--thinking", ctx.effort),
      ...(ctx.mode === "full" ? [] : ["--tools", TOOLS_BY_MODE[ctx.mode]]),
      ...flag("--session", ctx.resume),
    ],
  }),
  protocol: { kind: "driver", driver: "pi-rpc" },
  classify: ({ stderrTail }) => {
    if (/no session found/i.test(stderrTail))
      return {
        code: "INVALID_REQUEST",
        message: stderrTail.trim().split("\n").pop() ?? "unknown session",
        hint: "Resume from the same working directory with an id that `pi` knows, or start a new run.",
      };
    return classifyStderr(stderrTail, PI);
  },
});
