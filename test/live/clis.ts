// The real agent CLIs of the live lane: one pinned list, an npm install into a cache outside
// the repo (re-used between runs, keyed by version), and per-CLI setup that points each CLI
// at the loopback model stub from a fresh HOME with an environment built from scratch.
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface LiveCli {
  /** The od adapter id; a CLI whose id od does not know is listed as skipped. */
  id: string;
  pkg: string;
  /** Pinned: the live lane is proven against exactly this version. */
  version: string;
  bin: string;
  /** The name of the CLI's own file-write tool (the read-only tests make the model call it anyway). */
  writeTool: string;
  /** Writes the CLI's config files into the fresh HOME and returns its own env vars (no secrets of the user). */
  setup(stubUrl: string, home: string): Record<string, string>;
  /** The model/effort case: what to pass to `od run`, and what the stub must then see. */
  choice: { model: string; effort: string; expectModel: RegExp; expectEffort: string };
  /** The login hint od must give on a rejected key. */
  loginHint: RegExp;
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
];

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
  const binDir = join(dir, "node_modules", ".bin");
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
    if (proc.exitCode !== 0 || !existsSync(join(partial, "node_modules", ".bin", cli.bin))) {
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
