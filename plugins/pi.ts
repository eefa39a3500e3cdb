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

/** The variables pi-ai reads a provider's credentials from (env-api-keys.js), Bedrock's and Vertex's included. */
const PI_ENV_KEYS = [
  ...["ANTHROPIC_OAUTH_TOKEN", "ANTHROPIC_API_KEY", "OPENAI_API_KEY", "AZURE_OPENAI_API_KEY", "DEEPSEEK_API_KEY", "GEMINI_API_KEY"],
  ...["GOOGLE_CLOUD_API_KEY", "GROQ_API_KEY", "CEREBRAS_API_KEY", "XAI_API_KEY", "OPENROUTER_API_KEY", "AI_GATEWAY_API_KEY"],
  ...["ZAI_API_KEY", "MISTRAL_API_KEY", "MINIMAX_API_KEY", "MINIMAX_CN_API_KEY", "MOONSHOT_API_KEY", "HF_TOKEN", "FIREWORKS_API_KEY"],
  ...["OPENCODE_API_KEY", "KIMI_API_KEY", "CLOUDFLARE_API_KEY", "XIAOMI_API_KEY", "XIAOMI_TOKEN_PLAN_CN_API_KEY"],
  ...["XIAOMI_TOKEN_PLAN_AMS_API_KEY", "XIAOMI_TOKEN_PLAN_SGP_API_KEY", "COPILOT_GITHUB_TOKEN", "GH_TOKEN", "GITHUB_TOKEN"],
  ...["AWS_PROFILE", "AWS_ACCESS_KEY_ID", "AWS_BEARER_TOKEN_BEDROCK", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"],
  ...["AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_WEB_IDENTITY_TOKEN_FILE", "GOOGLE_CLOUD_PROJECT", "GCLOUD_PROJECT"],
];

const PI_AUTH_FILES = [
  { path: "{PI_CODING_AGENT_DIR:-.pi/agent}/auth.json" },
  { path: "{PI_CODING_AGENT_DIR:-.pi/agent}/models.json", key: "providers" },
];

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
    // pi reaches a provider with a login or key in auth.json (`{}` until then), a provider of
    // models.json, or a provider's key in the environment (getEnvApiKey in @mariozechner/pi-ai 0.73):
    // nowhere else, so with none of them it is logged out. `--list-models` is its catalog, not detection.
    auth: { envKeys: PI_ENV_KEYS, files: PI_AUTH_FILES, complete: true },
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
