import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { loadRegistry } from "../../../src/builtins.ts";
import { flagsFromVersion } from "../../../src/core/agents/caps.ts";
import { detectAll } from "../../../src/core/agents/detect.ts";
import { nodeVersionOnDisk } from "../../../src/core/agents/version-on-disk.ts";
import type { Adapter } from "../../../src/core/contract/adapter.ts";
import type { ProbeResult } from "../../../src/core/os/probe.ts";
import { tmpdir } from "../../helpers.ts";

/**
 * Detection of real adapters from fixture HOME folders: each CLI installed the npm way at a
 * pinned version (a shell script, so no Node engines question), its login as files and variables.
 * The prober is a stand-in that records every command: a spawn shows in `spawned`.
 */
const registry = await loadRegistry([]);
const byId = (id: string) => registry.list().find((e) => e.adapter.id === id)!.adapter;

function write(path: string, text: string, mode = 0o644) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, mode);
}

function install(root: string, a: Adapter, version: string) {
  const pkgDir = join(root, "lib", "node_modules", a.detect.npmPackage!);
  write(join(pkgDir, "package.json"), JSON.stringify({ name: a.detect.npmPackage, version }));
  write(join(pkgDir, "cli.sh"), "#!/bin/sh\necho never started\n", 0o755);
  mkdirSync(join(root, "bin"), { recursive: true });
  symlinkSync(join(pkgDir, "cli.sh"), join(root, "bin", a.bin));
}

/** What the CLIs' own login probes answer here: "not logged in". */
const ANSWERS: Array<[RegExp, ProbeResult]> = [
  [/ auth status --json$/, { exitCode: 0, output: '{"loggedIn": false}', timedOut: false, failedToStart: false }],
  [/ login status$/, { exitCode: 1, output: "Not logged in", timedOut: false, failedToStart: false }],
];

interface Case {
  name: string;
  id: string;
  version?: string;
  files?: Record<string, unknown>;
  env?: Record<string, string>;
  expect: { status: string; auth: string; flags?: string[] };
  spawned?: string[];
}

const later = Date.now() + 3_600_000;
const CASES: Case[] = [
  {
    name: "claude, nothing: only its probe can tell",
    id: "claude",
    expect: { status: "logged-out", auth: "missing" },
    spawned: ["auth status --json"],
  },
  {
    name: "claude, API key",
    id: "claude",
    env: { ANTHROPIC_API_KEY: "k" },
    expect: { status: "ready", auth: "ok", flags: ["--include-partial-messages", "--strict-mcp-config"] },
  },
  { name: "claude, OAuth token variable", id: "claude", env: { CLAUDE_CODE_OAUTH_TOKEN: "t" }, expect: { status: "ready", auth: "ok" } },
  {
    name: "claude, OAuth login on disk",
    id: "claude",
    files: { ".claude/.credentials.json": { claudeAiOauth: { accessToken: "a", refreshToken: "r", expiresAt: later } } },
    expect: { status: "ready", auth: "ok" },
  },
  {
    name: "claude, expired access token with a refresh token (the CLI renews it)",
    id: "claude",
    files: { ".claude/.credentials.json": { claudeAiOauth: { accessToken: "a", refreshToken: "r", expiresAt: 1 } } },
    expect: { status: "ready", auth: "ok" },
  },
  {
    name: "claude, a credentials file without a login",
    id: "claude",
    files: { ".claude/.credentials.json": { mcpOAuth: {} } },
    expect: { status: "logged-out", auth: "missing" },
    spawned: ["auth status --json"],
  },
  {
    name: "claude, apiKeyHelper",
    id: "claude",
    files: { ".claude/settings.json": { apiKeyHelper: "pass claude" } },
    expect: { status: "ready", auth: "ok" },
  },
  {
    name: "claude, CLAUDE_CONFIG_DIR moves it",
    id: "claude",
    env: { CLAUDE_CONFIG_DIR: "/nonexistent-od" },
    files: { ".claude/.credentials.json": { claudeAiOauth: { accessToken: "a" } } },
    expect: { status: "logged-out", auth: "missing" },
    spawned: ["auth status --json"],
  },
  {
    name: "claude 1.0.100: before --include-partial-messages",
    id: "claude",
    version: "1.0.100",
    env: { ANTHROPIC_API_KEY: "k" },
    expect: { status: "ready", auth: "ok", flags: [] },
  },
  {
    name: "codex, ChatGPT login",
    id: "codex",
    files: { ".codex/auth.json": { OPENAI_API_KEY: null, tokens: { id_token: "i" } } },
    expect: { status: "ready", auth: "ok" },
  },
  {
    name: "codex, API key login",
    id: "codex",
    files: { ".codex/auth.json": { auth_mode: "apikey", OPENAI_API_KEY: "k" } },
    expect: { status: "ready", auth: "ok" },
  },
  { name: "codex, CODEX_API_KEY", id: "codex", env: { CODEX_API_KEY: "k" }, expect: { status: "ready", auth: "ok" } },
  {
    name: "codex, logged out (auth.json emptied)",
    id: "codex",
    files: { ".codex/auth.json": { OPENAI_API_KEY: null, tokens: null } },
    expect: { status: "logged-out", auth: "missing" },
    spawned: ["login status"],
  },
  {
    name: "gemini, Google login",
    id: "gemini",
    files: { ".gemini/oauth_creds.json": { refresh_token: "r", expiry_date: 1 } },
    expect: { status: "ready", auth: "ok" },
  },
  {
    name: "gemini, sign-in method in settings",
    id: "gemini",
    files: { ".gemini/settings.json": { security: { auth: { selectedType: "oauth-personal" } } } },
    expect: { status: "ready", auth: "ok" },
  },
  {
    name: "gemini, settings without one",
    id: "gemini",
    files: { ".gemini/settings.json": { security: { auth: {} } } },
    expect: { status: "ready", auth: "unknown" },
  },
  { name: "gemini, Vertex", id: "gemini", env: { GOOGLE_GENAI_USE_VERTEXAI: "true" }, expect: { status: "ready", auth: "ok" } },
  {
    name: "gemini, Vertex switched off",
    id: "gemini",
    env: { GOOGLE_GENAI_USE_VERTEXAI: "false" },
    expect: { status: "ready", auth: "unknown" },
  },
  {
    name: "gemini, GEMINI_CLI_HOME",
    id: "gemini",
    env: { GEMINI_CLI_HOME: "elsewhere" },
    files: { "elsewhere/.gemini/oauth_creds.json": { refresh_token: "r" } },
    expect: { status: "ready", auth: "ok" },
  },
  {
    name: "gemini-acp 0.61.0: --acp",
    id: "gemini-acp",
    version: "0.61.0",
    env: { GEMINI_API_KEY: "k" },
    expect: { status: "ready", auth: "ok", flags: ["--acp"] },
  },
  {
    name: "gemini-acp 0.30.0: before --acp",
    id: "gemini-acp",
    version: "0.30.0",
    env: { GEMINI_API_KEY: "k" },
    expect: { status: "ready", auth: "ok", flags: [] },
  },
  { name: "pi, nothing", id: "pi", expect: { status: "logged-out", auth: "missing" } },
  {
    name: "pi, auth.json before any login",
    id: "pi",
    files: { ".pi/agent/auth.json": {} },
    expect: { status: "logged-out", auth: "missing" },
  },
  {
    name: "pi, OAuth login (expired: pi refreshes it)",
    id: "pi",
    files: { ".pi/agent/auth.json": { anthropic: { type: "oauth", refresh: "r", access: "a", expires: 1 } } },
    expect: { status: "ready", auth: "ok" },
  },
  {
    name: "pi, a provider of models.json",
    id: "pi",
    files: { ".pi/agent/models.json": { providers: { mine: { baseUrl: "http://x" } } } },
    expect: { status: "ready", auth: "ok" },
  },
  { name: "pi, a provider key", id: "pi", env: { OPENROUTER_API_KEY: "k" }, expect: { status: "ready", auth: "ok" } },
  {
    name: "pi, PI_CODING_AGENT_DIR",
    id: "pi",
    env: { PI_CODING_AGENT_DIR: "/nonexistent-od" },
    files: { ".pi/agent/auth.json": { x: { type: "api_key" } } },
    expect: { status: "logged-out", auth: "missing" },
  },
  { name: "qodo, nothing", id: "qodo", expect: { status: "logged-out", auth: "missing" } },
  { name: "qodo, `qodo login`'s key file", id: "qodo", files: { ".qodo/auth.key": "qodo-key" }, expect: { status: "ready", auth: "ok" } },
  { name: "qodo, QODO_API_KEY", id: "qodo", env: { QODO_API_KEY: "k" }, expect: { status: "ready", auth: "ok" } },
];

describe("detection reads the install and the login from disk", () => {
  for (const c of CASES)
    test(c.name, async () => {
      await using tmp = tmpdir();
      const a = byId(c.id);
      install(tmp.path, a, c.version ?? "2.1.332");
      for (const [path, data] of Object.entries(c.files ?? {}))
        write(join(tmp.path, path), typeof data === "string" ? data : JSON.stringify(data));
      const env = { PATH: `${join(tmp.path, "bin")}:/usr/bin:/bin`, HOME: tmp.path, ...c.env };
      const spawned: string[] = [];
      const [d] = await detectAll([a], env, {
        probe: async (cmd) => {
          const line = cmd.slice(1).join(" ");
          spawned.push(line);
          return ANSWERS.find(([re]) => re.test(` ${line}`))?.[1] ?? { exitCode: 1, output: "", timedOut: false, failedToStart: false };
        },
      });
      expect(spawned).toEqual(c.spawned ?? []);
      expect(d).toMatchObject({ ...c.expect, version: c.version ?? "2.1.332", versionFrom: "package" });
      if (!c.expect.flags) expect(d!.flags).toEqual(a.detect.help ? expect.any(Array) : undefined);
    });
});

describe("capabilities from the version", () => {
  const claude = byId("claude");
  test.each([
    ["2.1.332", ["--include-partial-messages", "--strict-mcp-config"]],
    ["2.0.0", ["--include-partial-messages", "--strict-mcp-config"]],
    ["1.0.109", ["--include-partial-messages"]],
    ["1.0.108", []],
    ["v1.0.109-beta.1", ["--include-partial-messages"]],
    ["not a version", undefined],
    [undefined, undefined],
  ])("claude %p", (version, flags) => expect(flagsFromVersion(claude, version)).toEqual(flags));
  test("a flag without a `since` leaves it to --help", () => {
    expect(flagsFromVersion(byId("cursor-agent"), "2026.1.1")).toBeUndefined();
  });
  // CodeBuddy's first version with the flag is unknown (its changelog does not say); 2.117.0's --help lists it.
  test.each([
    ["2.117.0", ["--include-partial-messages"]],
    ["2.200.1", ["--include-partial-messages"]],
    ["v2.117.0", ["--include-partial-messages"]],
    ["2.116.9", undefined],
    ["1.0.0", undefined],
    ["not a version", undefined],
  ])("codebuddy %p: from the version its --help was seen in, --help below it", (version, flags) =>
    expect(flagsFromVersion(byId("codebuddy"), version)).toEqual(flags as string[] | undefined),
  );
  test.each([
    ["2.117.0", [], ["--include-partial-messages"]],
    ["2.50.0", ["--help"], []],
  ])("codebuddy %s installed the npm way: --help runs only below 2.117.0", async (version, spawned, flags) => {
    await using tmp = tmpdir();
    const codebuddy = byId("codebuddy");
    install(tmp.path, codebuddy, version);
    const ran: string[] = [];
    const [d] = await detectAll(
      [codebuddy],
      { PATH: join(tmp.path, "bin"), HOME: tmp.path, CODEBUDDY_API_KEY: "k" },
      {
        probe: async (cmd) => (
          ran.push(cmd.slice(1).join(" ")), { exitCode: 0, output: "Usage: codebuddy", timedOut: false, failedToStart: false }
        ),
      },
    );
    expect(ran).toEqual(spawned);
    expect(d).toMatchObject({ status: "ready", version, versionFrom: "package", flags });
  });
  test.each([
    ["claude 2.1.0", ["--version"], ["--include-partial-messages", "--strict-mcp-config"]],
    ["claude 0.9.0", ["--version"], []],
    ["no version here", ["--version", "--help"], ["--include-partial-messages", "--strict-mcp-config"]],
  ])("no version on disk, `--version` says %p: --help only when that tells nothing", async (said, spawned, flags) => {
    await using tmp = tmpdir();
    write(join(tmp.path, "bin", "claude"), "#!/bin/sh\n", 0o755); // not an npm install: the version must be asked
    const ran: string[] = [];
    const answer = (args: string) => (args === "--help" ? "  --include-partial-messages  stream\n  --strict-mcp-config  only" : said);
    const [d] = await detectAll(
      [claude],
      { PATH: join(tmp.path, "bin"), HOME: tmp.path, ANTHROPIC_API_KEY: "k" },
      {
        probe: async (cmd) => (
          ran.push(cmd.slice(1).join(" ")), { exitCode: 0, output: answer(cmd.slice(1).join(" ")), timedOut: false, failedToStart: false }
        ),
      },
    );
    expect(ran).toEqual(spawned);
    expect(d!.flags).toEqual(flags);
  });
});

describe("Node's version from its install", () => {
  test.each([
    ["nvm", ".nvm/versions/node/v22.11.0/bin/node", undefined, "v22.11.0"],
    ["Volta", ".volta/tools/image/node/22.1.0/bin/node", undefined, "v22.1.0"],
    ["tarball", "node-v20.9.0-linux-x64/bin/node", undefined, "v20.9.0"],
    ["its header", "usr/bin/node", [20, 20, 2], "v20.20.2"],
    ["nothing tells", "opt/x/bin/node", undefined, undefined],
  ])("%s", async (_, path, header, want) => {
    await using tmp = tmpdir();
    const node = join(tmp.path, path);
    write(node, "#!/bin/sh\n", 0o755);
    if (header) {
      const [major, minor, patch] = header as number[];
      const h = `#define NODE_MAJOR_VERSION ${major}\n#define NODE_MINOR_VERSION ${minor}\n#define NODE_PATCH_VERSION ${patch}\n`;
      write(join(dirname(dirname(node)), "include", "node", "node_version.h"), h);
    }
    expect(nodeVersionOnDisk(node)).toBe(want as string | undefined);
  });
});
