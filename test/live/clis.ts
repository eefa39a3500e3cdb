// The real agent CLIs of the live lane: one pinned list, an npm install into a cache outside
// the repo (re-used between runs, keyed by version), and per-CLI setup that points each CLI
// at the loopback model stub from a fresh HOME with an environment built from scratch.
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { acpModes } from "./clis-acp-modes.ts";
import { CLINE_CLIS } from "./clis-cline.ts";
import { NEW_CLIS } from "./clis-new.ts";
import { PROVEN_CLIS } from "./clis-proven.ts";

export interface LiveCli {
  /** The od adapter id; a CLI whose id od does not know is listed as skipped. */
  id: string;
  pkg: string;
  /** Pinned: the live lane is proven against exactly this version. */
  version: string;
  bin: string;
  /** Where the package keeps `bin`, relative to the install, when npm does not link it into node_modules/.bin. */
  binSubdir?: string;
  /** The name of the CLI's own file-write tool (the read-only tests make the model call it anyway). */
  writeTool: string;
  /** Writes the CLI's config files into the fresh HOME and returns its own env vars (no secrets of the user). */
  setup(stubUrl: string, home: string): Record<string, string>;
  /** The model/effort case: what to pass to `od run`, and what the stub must then see (no effort for a CLI without an effort flag). */
  choice: { model: string; expectModel: RegExp; effort?: string; expectEffort?: string };
  /** The CLI asks od's permission broker before it edits (ACP): the tool turn must show the request and the policy's decision. */
  asksPermission?: boolean;
  /** What this CLI cannot show, by scenario name (or "stream-chunks"), each with the reason; those checks are skipped and the table says why. */
  cannot?: Partial<Record<string, string>>;
  /** The login hint od must give on a rejected key. */
  loginHint: RegExp;
  /** The mode the scenarios run in, for a CLI od offers in full mode only (default: edit). */
  mode?: "full";
  /** How long the CLI itself takes to report a rejected login (default 15 s): od stops at its first word. */
  authReportedWithinMs?: number;
  /** Its sessions resume only through its vendor's servers: the resume scenario cannot run here, but runs are resumable. */
  resumesOnline?: boolean;
  /** The CLI's shell tool and its arguments for a command: edit mode must refuse it (scenarios-authority.ts). */
  shellTool?: { name: string; args: (command: string) => Record<string, unknown> };
}

/** pi's provider for the stub (models.json), and the model the lane selects explicitly. */
const PI_PROVIDER = "odstub";
const PI_MODEL = "stub-model";

/**
 * Pinned CLIs. Add an entry per CLI (codex, gemini, qwen, opencode, ...) once it can be
 * pointed at the stub; an entry whose id has no od adapter yet is reported as skipped.
 */
export const CLIS: LiveCli[] = [
  {
    id: "claude",
    pkg: "@anthropic-ai/claude-code",
    version: "2.1.332",
    bin: "claude",
    writeTool: "Write",
    setup: (stubUrl) => ({
      ANTHROPIC_BASE_URL: stubUrl,
      ANTHROPIC_API_KEY: "sk-ant-od-live-not-a-key",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_AUTOUPDATER: "1",
      // Deliberately no CLAUDE_CODE_MAX_RETRIES: od itself must stop the run on a rejected key.
    }),
    choice: { model: "sonnet", effort: "low", expectModel: /sonnet/, expectEffort: "low" },
    shellTool: { name: "Bash", args: (command) => ({ command, description: "Write a file" }) },
    loginHint: /\/login|ANTHROPIC_API_KEY/,
  },
  {
    id: "pi",
    pkg: "@mariozechner/pi-coding-agent",
    version: "0.73.1",
    bin: "pi",
    writeTool: "write",
    setup: (stubUrl, home) => {
      const dir = join(home, ".pi", "agent");
      mkdirSync(dir, { recursive: true });
      const models = {
        providers: {
          [PI_PROVIDER]: {
            baseUrl: `${stubUrl}/v1`,
            api: "openai-completions",
            apiKey: "OD_STUB_API_KEY",
            compat: { supportsDeveloperRole: false },
            models: [{ id: PI_MODEL, reasoning: true }],
          },
        },
      };
      writeFileSync(join(dir, "models.json"), JSON.stringify(models, null, 2));
      writeFileSync(join(dir, "settings.json"), JSON.stringify({ defaultProvider: PI_PROVIDER, defaultModel: PI_MODEL }, null, 2));
      return { PI_OFFLINE: "1", PI_TELEMETRY: "0", OD_STUB_API_KEY: "od-live-not-a-key" };
    },
    choice: { model: `${PI_PROVIDER}/${PI_MODEL}`, effort: "high", expectModel: new RegExp(`^${PI_MODEL}$`), expectEffort: "high" },
    loginHint: /\/login|API key/,
  },
  {
    id: "codex",
    pkg: "@openai/codex",
    version: "0.171.0",
    bin: "codex",
    writeTool: "apply_patch",
    setup: (stubUrl, home) => {
      // A custom provider over plain HTTP (the built-in one tries WebSockets first and ignores
      // OPENAI_BASE_URL). gpt-5.5 gets codex's classic tools, whose apply_patch the stub can call.
      // Deliberately no request_max_retries/stream_max_retries: od itself must stop at a rejected key.
      mkdirSync(join(home, ".codex"), { recursive: true });
      const config = [
        'model = "gpt-5.5"',
        'model_provider = "odstub"',
        "[model_providers.odstub]",
        'name = "odstub"',
        `base_url = "${stubUrl}/v1"`,
        'wire_api = "responses"',
        'env_key = "OD_STUB_API_KEY"',
      ];
      writeFileSync(join(home, ".codex", "config.toml"), `${config.join("\n")}\n`);
      return { OD_STUB_API_KEY: "od-live-not-a-key" };
    },
    choice: { model: "gpt-6.2-sol", effort: "high", expectModel: /^gpt-6\.2-sol$/, expectEffort: "high" },
    cannot: {
      "stream-chunks": "codex exec --json gives each agent message whole, not in deltas",
      "read-only-pushy": "codex exec --json shows no item for a patch its sandbox refuses",
    },
    loginHint: /codex login/,
  },
  {
    id: "gemini",
    pkg: "@google/gemini-cli",
    version: "0.61.0",
    bin: "gemini",
    writeTool: "write_file",
    setup: (stubUrl, home) => {
      // GOOGLE_GEMINI_BASE_URL alone selects the "gateway" auth type, which headless runs reject
      // (exit 41): the settings file selects API-key auth, the variable only moves the endpoint.
      mkdirSync(join(home, ".gemini"), { recursive: true });
      const settings = {
        security: { auth: { selectedType: "gemini-api-key" } },
        privacy: { usageStatisticsEnabled: false },
        general: { disableAutoUpdate: true },
      };
      writeFileSync(join(home, ".gemini", "settings.json"), JSON.stringify(settings, null, 2));
      return { GEMINI_API_KEY: "od-live-not-a-key", GOOGLE_GEMINI_BASE_URL: stubUrl, GEMINI_CLI_NO_RELAUNCH: "true" };
    },
    // Gemini CLI has no effort flag, so od refuses any --effort for it (efforts: []).
    choice: { model: "flash", expectModel: /flash/ },
    shellTool: { name: "run_shell_command", args: (command) => ({ command, description: "Write a file" }) },
    cannot: {
      thinking: "gemini --output-format stream-json never emits thoughts",
      "read-only-pushy": "the pushy proxy rewrites Anthropic and OpenAI requests, not Gemini's generateContent",
    },
    loginHint: /GEMINI_API_KEY|\/auth/,
  },
  {
    id: "qwen",
    pkg: "@qwen-code/qwen-code",
    version: "0.24.4",
    bin: "qwen",
    writeTool: "write_file",
    setup: (stubUrl, home) => {
      // Managed auto-memory sends a background model request after every turn, which would become
      // the stub's last turn; the lane turns it off (od leaves the user's own setting alone).
      mkdirSync(join(home, ".qwen"), { recursive: true });
      writeFileSync(join(home, ".qwen", "settings.json"), JSON.stringify({ memory: { enableManagedAutoMemory: false } }, null, 2));
      return { OPENAI_BASE_URL: `${stubUrl}/v1`, OPENAI_API_KEY: "od-live-not-a-key", OPENAI_MODEL: "stub-model" };
    },
    // Qwen Code has no effort flag, so od refuses any --effort for it (efforts: []).
    choice: { model: "qwen3-coder-plus", expectModel: /^qwen3-coder-plus$/ },
    shellTool: { name: "run_shell_command", args: (command) => ({ command, is_background: false, description: "Write a file" }) },
    loginHint: /\/auth|OPENAI_API_KEY/,
  },
  {
    id: "opencode",
    pkg: "opencode-ai",
    version: "1.18.33",
    bin: "opencode",
    writeTool: "write",
    setup: (stubUrl, home) => {
      // A custom OpenAI-compatible provider. The title agent is off: its extra request (no tools,
      // small_model) could otherwise land after the turn's own and become the stub's last turn.
      const dir = join(home, ".config", "opencode");
      mkdirSync(dir, { recursive: true });
      const provider = {
        odstub: {
          npm: "@ai-sdk/openai-compatible",
          options: { baseURL: `${stubUrl}/v1`, apiKey: "{env:OD_STUB_API_KEY}" },
          models: { "stub-model": { tool_call: true, reasoning: true } },
        },
      };
      const config = {
        autoupdate: false,
        share: "disabled",
        model: "odstub/stub-model",
        small_model: "odstub/stub-model",
        agent: { title: { disable: true } },
        provider,
      };
      writeFileSync(join(dir, "opencode.json"), JSON.stringify(config, null, 2));
      return { OD_STUB_API_KEY: "od-live-not-a-key", OPENCODE_DISABLE_MODELS_FETCH: "1", OPENCODE_DISABLE_AUTOUPDATE: "1" };
    },
    // stub-model offers the variants low, medium and high (`opencode models --verbose`).
    choice: { model: "odstub/stub-model", effort: "high", expectModel: /^stub-model$/, expectEffort: "high" },
    cannot: { "stream-chunks": "opencode run --format json prints each text part whole, once it is finished" },
    loginHint: /opencode auth login/,
  },
  {
    id: "copilot",
    pkg: "@github/copilot",
    version: "1.0.102",
    bin: "copilot",
    writeTool: "create",
    setup: (stubUrl) => ({
      // BYOK against the stub; offline mode skips GitHub auth, telemetry and updates. The 235 MB
      // runtime copilot unpacks on first start is cached once, outside the per-test HOME.
      COPILOT_PROVIDER_BASE_URL: `${stubUrl}/v1`,
      COPILOT_PROVIDER_API_KEY: "od-live-not-a-key",
      COPILOT_MODEL: "stub-model",
      COPILOT_OFFLINE: "true",
      COPILOT_AUTO_UPDATE: "false",
      XDG_CACHE_HOME: join(cacheRoot(), "copilot-xdg-cache"),
    }),
    choice: { model: "gpt-5.4", effort: "high", expectModel: /^gpt-5\.4$/, expectEffort: "high" },
    cannot: { usage: "copilot --output-format json carries no token usage (the CLI leaves assistant.usage out of its JSONL)" },
    loginHint: /\/login|COPILOT_PROVIDER_API_KEY/,
  },
  {
    id: "codebuddy",
    // The registry serves @tencent-ai/codebuddy-code itself only inside the SDK package (CLI 2.117.0).
    pkg: "@tencent-ai/agent-sdk",
    version: "0.3.201",
    bin: "codebuddy",
    binSubdir: join("node_modules", "@tencent-ai", "agent-sdk", "cli", "bin"),
    writeTool: "Write",
    // CODEBUDDY_BASE_URL moves every model request (OpenAI chat completions) to the stub.
    setup: (stubUrl) => ({ CODEBUDDY_BASE_URL: stubUrl, CODEBUDDY_API_KEY: "od-live-not-a-key" }),
    choice: { model: "gpt-5.5", effort: "low", expectModel: /^gpt-5\.5$/, expectEffort: "low" },
    shellTool: { name: "Bash", args: (command) => ({ command, description: "Write a file" }) },
    loginHint: /\/login|CODEBUDDY_API_KEY/,
  },
  {
    id: "kimi",
    // Headless Kimi runs every tool unasked: its read-only and edit modes are the kernel sandbox's alone.
    pkg: "@moonshot-ai/kimi-code",
    version: "2.1.0",
    bin: "kimi",
    writeTool: "Write",
    setup: (stubUrl, home) => {
      // Two model aliases on an OpenAI-compatible provider (credentials only from config.toml).
      const dir = join(home, ".kimi-code");
      mkdirSync(dir, { recursive: true });
      const model = (alias: string, id: string) => [
        `[models."${alias}"]`,
        'provider = "odstub"',
        `model = "${id}"`,
        "max_context_size = 128000",
      ];
      const config = [
        'default_model = "odstub/stub-model"',
        "telemetry = false",
        "[providers.odstub]",
        'type = "openai"',
        `base_url = "${stubUrl}/v1"`,
        'api_key = "od-live-not-a-key"',
      ];
      writeFileSync(
        join(dir, "config.toml"),
        `${[...config, ...model("odstub/stub-model", "stub-model"), ...model("odstub/other", "stub-other")].join("\n")}\n`,
      );
      // kimi 2.1.0 needs Node >= 22.19 (node:zlib zstd): the Bun running this lane stands in as the
      // `node` of its `#!/usr/bin/env node` entry point, so the lane does not depend on the machine's node.
      const runtime = join(home, "node-runtime");
      mkdirSync(runtime, { recursive: true });
      writeFileSync(join(runtime, "node"), `#!/bin/sh\nexec '${process.execPath}' "$@"\n`, { mode: 0o755 });
      const self = CLIS.find((c) => c.id === "kimi")!;
      return { PATH: [runtime, join(installDir(self), "node_modules", ".bin"), "/usr/bin", "/bin"].join(":") };
    },
    // Kimi Code has no effort flag (effort is per-model config), so od refuses any --effort for it.
    choice: { model: "odstub/other", expectModel: /^stub-other$/ },
    cannot: {
      "stream-chunks": "kimi's stream-json gives each message whole",
      usage: "kimi's stream-json carries no token usage",
      thinking: "kimi's stream-json never writes thinking",
      "read-only-pushy": "kimi -p always runs with auto permissions and offers its write tool anyway: read-only-kernel is the case",
    },
    loginHint: /kimi login|\/login/,
  },
];

/** The ACP transport of a CLI above: the same package and setup, driven through another od adapter. */
function acpVariantOf(base: string, id: string, over: Partial<LiveCli>): LiveCli {
  const cli = CLIS.find((c) => c.id === base);
  if (!cli) throw new Error(`no live CLI ${base}`);
  return { ...cli, id, ...over };
}

CLIS.push(
  acpVariantOf("gemini", "gemini-acp", {
    asksPermission: true,
    shellTool: { name: "run_shell_command", args: (command) => ({ command, description: "Write a file" }) },
    choice: { model: "gemini-3.8-flash", expectModel: /^gemini-3\.8-flash$/ },
    cannot: {
      resume: 'Gemini 0.61 answers session/load with "No previous sessions found" for its own ACP sessions',
      thinking: "Gemini CLI streams no thoughts (ACP or not)",
      "read-only-pushy": "the pushy proxy rewrites Anthropic and OpenAI requests, not Gemini's generateContent",
    },
  }),
  acpVariantOf("qwen", "qwen-acp", {
    asksPermission: true,
    choice: { model: "stub-model", expectModel: /^stub-model$/ },
    shellTool: { name: "run_shell_command", args: (command) => ({ command, is_background: false, description: "Write a file" }) },
  }),
);
CLIS.push(...acpModes(acpVariantOf)); // the ACP modes of copilot, opencode, kimi and qoder (clis-acp-modes.ts)

// ACP-only agents and the Claude/Codex ACP bridges, each from its own npm package.
CLIS.push(
  {
    id: "kilo",
    pkg: "@kilocode/cli",
    // 7.8.1's postinstall needs @kilocode/cli-linux-x64@7.8.1, which the registry does not have.
    version: "7.7.7",
    bin: "kilo",
    writeTool: "write",
    setup: (stubUrl, home) => {
      // Kilo is an OpenCode fork: the same provider config, in ~/.config/kilo/kilo.json.
      const dir = join(home, ".config", "kilo");
      mkdirSync(dir, { recursive: true });
      const models = { "stub-model": { tool_call: true, reasoning: true }, "stub-other": { tool_call: true } };
      const provider = {
        odstub: { npm: "@ai-sdk/openai-compatible", options: { baseURL: `${stubUrl}/v1`, apiKey: "{env:OD_STUB_API_KEY}" }, models },
      };
      const config = {
        autoupdate: false,
        share: "disabled",
        model: "odstub/stub-model",
        small_model: "odstub/stub-model",
        agent: { title: { disable: true } },
        provider,
      };
      writeFileSync(join(dir, "kilo.json"), JSON.stringify(config, null, 2));
      const off = ["MODELS_FETCH", "AUTOUPDATE", "SHARE", "LSP_DOWNLOAD", "SESSION_INGEST", "PRESENCE", "CODEBASE_INDEXING"];
      return { OD_STUB_API_KEY: "od-live-not-a-key", ...Object.fromEntries(off.map((k) => [`KILO_DISABLE_${k}`, "1"])) };
    },
    choice: { model: "odstub/stub-other", expectModel: /^stub-other$/ },
    asksPermission: true,
    shellTool: { name: "bash", args: (command) => ({ command, description: "Write a file" }) },
    loginHint: /kilo auth login/,
  },
  {
    id: "claude-acp",
    pkg: "@agentclientprotocol/claude-agent-acp",
    version: "0.101.0",
    bin: "claude-agent-acp",
    writeTool: "Write",
    // Stock settings (no ~/.claude/settings.json): the bridge's own default is "auto", where Claude
    // runs commands unasked; od must put the session in its manual mode itself.
    setup: (stubUrl) => {
      return {
        ANTHROPIC_BASE_URL: stubUrl,
        ANTHROPIC_API_KEY: "sk-ant-od-live-not-a-key",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_AUTOUPDATER: "1",
      };
    },
    choice: { model: "sonnet", expectModel: /sonnet/ },
    asksPermission: true,
    shellTool: { name: "Bash", args: (command) => ({ command, description: "Write a file" }) },
    cannot: {
      "auth-failure": "the bridge hides Claude Code's 401 retries: a rejected key ends the turn only after ~3 min (fixture auth-rejected)",
    },
    loginHint: /\/login|ANTHROPIC_API_KEY/,
  },
  {
    id: "codex-acp",
    pkg: "@agentclientprotocol/codex-acp",
    version: "2.6.0",
    bin: "codex-acp",
    // What od shows for codex's apply_patch over ACP: the bridge titles it "Editing files".
    writeTool: "apply_patch",
    setup: (stubUrl, home) => CLIS.find((c) => c.id === "codex")!.setup(stubUrl, home),
    choice: { model: "gpt-6.1-sol", expectModel: /^gpt-6\.1-sol$/ },
    cannot: { thinking: 'codex-acp opens each reasoning summary with a "\\n\\n" thought chunk' },
    loginHint: /codex login/,
  },
  {
    id: "reasonix",
    pkg: "reasonix",
    version: "1.38.11",
    bin: "reasonix",
    writeTool: "write_file",
    setup: (stubUrl, home) => {
      // Provider keys come only from ~/.reasonix/.env (never from the environment).
      const dir = join(home, ".reasonix");
      mkdirSync(dir, { recursive: true });
      const provider = [
        "[[providers]]",
        'name = "odstub"',
        'kind = "openai"',
        `base_url = "${stubUrl}/v1"`,
        'models = ["stub-model", "stub-other"]',
        'default = "stub-model"',
        'api_key_env = "OD_STUB_API_KEY"',
      ];
      writeFileSync(join(dir, "config.toml"), `${["config_version = 1", 'default_model = "odstub/stub-model"', ...provider].join("\n")}\n`);
      writeFileSync(join(dir, ".env"), "OD_STUB_API_KEY=od-live-not-a-key\n");
      return {};
    },
    choice: { model: "odstub/stub-other", expectModel: /^stub-other$/ },
    cannot: { chat: "reasonix reports token usage only in its _reasonix.io/session/status_update notifications (kept as raw)" },
    loginHint: /reasonix setup/,
  },
);

CLIS.push(...NEW_CLIS); // Droid and Continue (clis-new.ts)
CLIS.push(...PROVEN_CLIS); // Qoder CLI and Amp up to their account servers (clis-proven.ts)
CLIS.push(...CLINE_CLIS); // Cline over ACP (clis-cline.ts)

/** Where installed CLIs live: `$OD_LIVE_CACHE`, else `~/.cache/od-live`. Never inside the repo. */
export function cacheRoot(): string {
  return process.env.OD_LIVE_CACHE || join(homedir(), ".cache", "od-live");
}

export function installDir(cli: LiveCli): string {
  return join(cacheRoot(), `${cli.pkg}@${cli.version}`);
}

/**
 * Installs the pinned CLI with npm into the cache (skipped when its bin is already there) and
 * returns the bin directory. npm runs with a throwaway HOME, since some installers edit shell
 * profiles; it installs into a private folder that is renamed into place only when complete.
 */
export async function installCli(cli: LiveCli, timeoutMs = 300_000): Promise<string> {
  const dir = installDir(cli);
  const binSubdir = cli.binSubdir ?? join("node_modules", ".bin");
  const binDir = join(dir, binSubdir);
  if (existsSync(join(binDir, cli.bin))) return binDir;

  mkdirSync(dirname(dir), { recursive: true });
  const partial = `${dir}.partial-${process.pid}-${Date.now()}`;
  const npmHome = mkdtempSync(join(tmpdir(), "od-live-npm-home-"));
  const userNpmrc = join(homedir(), ".npmrc");
  try {
    mkdirSync(partial, { recursive: true });
    const proc = Bun.spawn(["npm", "install", "--no-audit", "--no-fund", "--prefix", partial, `${cli.pkg}@${cli.version}`], {
      env: {
        ...process.env,
        HOME: npmHome,
        npm_config_cache: join(cacheRoot(), ".npm-cache"),
        npm_config_update_notifier: "false",
        // Keep the user's registry/proxy settings, not their home.
        ...(existsSync(userNpmrc) ? { npm_config_userconfig: userNpmrc } : {}),
      },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      timeout: timeoutMs,
      killSignal: "SIGKILL",
    });
    const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (proc.exitCode !== 0 || !existsSync(join(partial, binSubdir, cli.bin))) {
      const tail = `${out}\n${err}`.trim().split("\n").slice(-8).join("\n");
      throw new Error(`npm install ${cli.pkg}@${cli.version} failed (exit ${proc.exitCode ?? proc.signalCode}):\n${tail}`);
    }
    if (!existsSync(join(binDir, cli.bin))) {
      rmSync(dir, { recursive: true, force: true }); // a broken earlier install
      renameSync(partial, dir);
    }
    return binDir;
  } finally {
    rmSync(partial, { recursive: true, force: true });
    rmSync(npmHome, { recursive: true, force: true });
  }
}

/**
 * The whole environment of one live run, built from scratch: nothing of the user's HOME, PATH
 * or keys. PATH is the CLI's bin dir (after any `extraPath`), node's dir, /usr/bin and /bin.
 */
export function liveEnv(cli: LiveCli, o: { binDir: string; home: string; stubUrl: string; extraPath?: string[] }): Record<string, string> {
  const node = Bun.which("node");
  const path = [...(o.extraPath ?? []), o.binDir, ...(node ? [dirname(node)] : []), "/usr/bin", "/bin"];
  return {
    PATH: [...new Set(path)].join(":"),
    HOME: o.home,
    OD_HOME: join(o.home, ".od"),
    ...cli.setup(o.stubUrl, o.home),
  };
}
