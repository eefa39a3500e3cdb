import {
  type Classification,
  classifyStderr,
  defineAdapter,
  defineLinesProtocol,
  flag,
  type OdEventBody,
  parseVersion,
} from "../src/plugin.ts";

/**
 * Crush (Charm's `crush`, npm `@charmland/crush`) non-interactive: `crush run --quiet`, the prompt
 * on stdin ("The prompt can be provided as arguments or piped from stdin": `MaybePrependStdin`
 * reads a piped stdin whole, and with no argument that is the prompt). stdout is the assistant's
 * text as plain text, streamed as it grows, then one newline; nothing else reaches it (no tool
 * calls, usage or session id). A failure is an error on stderr (fang's "ERROR" box) and exit 1.
 *
 * How it is proven: from Crush's source and README, not run here: `@charmland/crush`'s install
 * step downloads its Go binary from outside the npm registry, which these machines cannot reach.
 * Sources (github.com/charmbracelet/crush at 37f36e9, ≈ v0.90; npm has 0.96.1): internal/cmd/run.go
 * (the `run` command, its flags `-q/--quiet`, `-v/--verbose`, `-m/--model` ("model" or
 * "provider/model"), `--small-model`, `-s/--session`, `-C/--continue`), internal/cmd/root.go
 * (persistent `-c/--cwd`, `-D/--data-dir`; `-y/--yolo` is the root command's own flag, not
 * `run`'s; `MaybePrependStdin`), internal/app/app.go (`RunNonInteractive`), internal/config/load.go
 * (config and data paths), README.md (provider keys, "Allowing Tools", "Disabling Built-In Tools",
 * skills). The fixtures in test/fixtures/crush are shaped from these, not captured (see their README.md).
 *
 * Modes: held by the kernel alone. `RunNonInteractive` calls `Permissions.AutoApproveSession` on its
 * session: headless, Crush runs every tool it has (bash included) unasked, with or without `--yolo`.
 * Its only tool limits are `permissions.allowed_tools` and `options.disabled_tools` in crush.json
 * files (the user's global config, or the project's), with no flag for a run, so its flags cannot
 * hold it to read-only or edit: od offers those modes only where its kernel sandbox holds them (in
 * read-only, Crush's project database goes to the run's private folder: `--data-dir`).
 *
 * Resume: `--session <id>` exists, but `crush run` prints no session id (only its `--verbose`
 * log does), so od does not offer it. No effort flag. Skills: Crush loads `.crush/skills` (and
 * `.agents/skills`) in the project, so od writes them there.
 */
const AGENT = {
  name: "Crush",
  login:
    "set a provider's API key (ANTHROPIC_API_KEY, OPENAI_API_KEY, …), run `crush login` (Hyper, Copilot), or run `crush` once to configure a provider",
};

/** Crush's errors that mean no provider (no key, no login) is configured. */
const NO_PROVIDER = /no providers configured|please run 'crush' to set up a provider/i;

/** The message of fang's error box on stderr: its last line that is not the usage tip. */
function errorLine(tail: string): string {
  const lines = tail
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !/^ERROR$/.test(l) && !/^Try --help/i.test(l));
  return lines.find((l) => NO_PROVIDER.test(l)) ?? lines.at(-1) ?? tail.trim();
}

function classify(stderrTail: string): Classification | undefined {
  const line = errorLine(stderrTail);
  if (NO_PROVIDER.test(line)) return { code: "AGENT_AUTH_REQUIRED", message: line, hint: `Log in: ${AGENT.login}` };
  return classifyStderr(line, AGENT);
}

export default defineAdapter({
  id: "crush",
  ...AGENT,
  homepage: "https://github.com/charmbracelet/crush",
  install: "npm install -g @charmland/crush",
  bin: "crush",
  // fang's `--version` prints "crush version v0.90.0".
  version: { args: ["--version"], parse: parseVersion },
  // Crush keeps its database in the project, <cwd>/.crush (crush.db, logs) unless --data-dir says
  // otherwise (internal/config/load.go): in read-only mode od passes the run's private folder.
  state: [
    "{XDG_CONFIG_HOME:-.config}/crush/", // crush.json (github.com/charmbracelet/crush at 37f36e9: internal/config/load.go GlobalConfig)
    "{CRUSH_GLOBAL_CONFIG}/", // ditto, when moved
    "{XDG_DATA_HOME:-.local/share}/crush/", // its own crush.json and the providers cache (load.go GlobalConfigData, provider.go)
    "{CRUSH_GLOBAL_DATA}/", // ditto, when moved
    "{XDG_CACHE_HOME:-.cache}/crush/", // server locks and caches (load.go GlobalCacheDir)
    "{CRUSH_CACHE_DIR}/", // ditto, when moved
  ],
  // The user's crush.json names the MCP servers and language servers it starts in every later run; Crush
  // writes its own state to the data folder's crush.json, not this one (load.go).
  lockedState: ["{XDG_CONFIG_HOME:-.config}/crush/crush.json", "{CRUSH_GLOBAL_CONFIG}/crush.json"],
  detect: {
    configDir: ".config/crush",
    npmPackage: "@charmland/crush",
    auth: {
      // The provider keys Crush's README lists (a custom provider in crush.json names its own).
      envKeys: [
        "HYPER_API_KEY",
        "ANTHROPIC_API_KEY",
        "OPENAI_API_KEY",
        "GEMINI_API_KEY",
        "OPENROUTER_API_KEY",
        "GROQ_API_KEY",
        "VERCEL_API_KEY",
        "ZAI_API_KEY",
        "CEREBRAS_API_KEY",
        "AZURE_OPENAI_API_KEY",
        "OPENCODE_API_KEY",
      ],
      // The TUI's setup and `crush login` write the chosen providers here (never read, only its `providers` field's presence).
      files: [
        { path: "{XDG_DATA_HOME:-.local/share}/crush/crush.json", key: "providers" },
        { path: "{XDG_CONFIG_HOME:-.config}/crush/crush.json", key: "providers" },
      ],
    },
  },
  // `-m` takes any configured provider's model ("model" or "provider/model"); `crush models` lists them.
  models: [],
  efforts: [],
  capabilities: { streaming: true, resume: false, readOnly: false, edit: false, skills: "native" },
  skillTarget: ".crush/skills",
  prompt: { via: "stdin" },
  invoke: (ctx) => ({
    argv: [
      "run",
      "--quiet",
      ...flag("--model", ctx.model),
      // Its database in the run's private folder where read-only leaves it none in the project (root.go: --data-dir).
      ...(ctx.mode === "read-only" && ctx.tmpDir ? ["--data-dir", `${ctx.tmpDir}/crush`] : []),
    ],
    stdin: ctx.prompt,
  }),
  protocol: defineLinesProtocol({
    format: "text",
    createState: () => ({}),
    // Every stdout line is answer text; lines arrive without their newline, so it goes back on.
    parse: (line): OdEventBody[] => [{ type: "text.delta", id: "answer", text: `${String(line)}\n` }],
  }),
  classify: ({ stderrTail }) => classify(stderrTail),
});
