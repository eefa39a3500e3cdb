/**
 * `GET /api/agents/:id/models` and `od models --agent <id> --json` must tell the same
 * story for every built-in adapter: they once read different sources, and the route
 * answered pi's empty alias list (["default"]) while the CLI listed pi's real catalog.
 * ACP agents' models come from session/new, fetched when asked for (they were not discovered at all).
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadRegistry } from "../../src/builtins.ts";
import { Slots } from "../../src/core/os/slots.ts";
import { Runs } from "../../src/core/runs/service.ts";
import { RunLog } from "../../src/core/store/run-log.ts";
import { createApp } from "../../src/server/app.ts";
import { FAKE_ACP, ROOT, tmpdir } from "../helpers.ts";
import { HOST, TOKEN } from "./support.ts";

// What `pi --list-models` prints (on stderr), so pi has a catalog beyond its empty alias list.
const PI_TABLE = "provider   model           context\\nanthropic  claude-test-1   200K\\nopenai     gpt-test-2      128K\\n";

// What every ACP agent's session/new offers here (test/bin/fake-acp.ts).
const ACP_MODELS = ["acp-model-1", "acp-model-2"];

/**
 * One shell fake per adapter binary: a version for everyone, pi's model table for `--list-models`,
 * and the fake ACP agent for an ACP command (`--acp`, `acp`, or no arguments: the bridges).
 */
function installFakes(bin: string, names: string[]) {
  mkdirSync(bin, { recursive: true });
  const acpScript = join(bin, "..", "acp.json");
  writeFileSync(acpScript, JSON.stringify({ models: ACP_MODELS, modes: ["default", "plan"], turn: [] }));
  const acp = `FAKE_SCRIPT="${acpScript}" exec "${process.execPath}" "${FAKE_ACP}"`;
  // Help names every ACP entry (detect.help scans it); an ACP word anywhere in argv (devin's `… acp`,
  // trae's `… acp serve`, grok's `agent stdio`), or no argument (the bridges), starts the ACP fake.
  const script = [
    "#!/bin/sh",
    'for a; do case "$a" in --help|-h) echo "acp --acp --experimental-acp stdio"; exit 0;; esac; done',
    `case "$1" in --list-models) printf '${PI_TABLE}' >&2; exit 0;; --version|-v|-V|version) echo 2026.9.9; exit 0;; esac`,
    `for a; do case "$a" in --acp|--acp=true|--experimental-acp|acp|stdio) ${acp};; esac; done`,
    `[ $# -eq 0 ] && ${acp}`,
    "echo 2026.9.9",
  ].join("\n");
  for (const name of names) {
    writeFileSync(join(bin, name), script);
    chmodSync(join(bin, name), 0o755);
  }
}

async function cliModels(id: string, env: Record<string, string>) {
  const p = Bun.spawn([process.execPath, join(ROOT, "src/main.ts"), "models", "--agent", id, "--json"], {
    env,
    cwd: ROOT,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`od models --agent ${id} exited ${code}: ${err}`);
  return JSON.parse(out) as unknown;
}

describe("GET /api/agents/:id/models", () => {
  test("answers what `od models --agent <id> --json` prints, for every built-in adapter", async () => {
    await using tmp = tmpdir();
    const registry = await loadRegistry([]);
    const adapters = registry.list().map((e) => e.adapter);
    const bin = join(tmp.path, "bin");
    // Every adapter gets a fake, so no real CLI in a user tool folder is ever probed.
    installFakes(bin, [...new Set(adapters.map((a) => a.bin))]);
    const base = { PATH: `${bin}:/usr/bin:/bin`, HOME: tmp.path, OD_NO_PLUGINS: "1", NO_COLOR: "1" };
    // Separate od homes: each surface probes for itself instead of reading the other's cache.
    const serverEnv = { ...base, OD_HOME: join(tmp.path, "server-home") };
    const cliEnv = { ...base, OD_HOME: join(tmp.path, "cli-home") };
    const runs = new Runs({ registry, log: new RunLog(join(tmp.path, "runs")), slots: new Slots(1), env: serverEnv });
    const app = createApp({ registry, runs, token: TOKEN, allowedHosts: [HOST], env: serverEnv });

    const pairs = await Promise.all(
      adapters.map(async (a) => {
        const res = await app.request(`/api/agents/${a.id}/models`, { headers: { host: HOST, "x-od-token": TOKEN } });
        return { id: a.id, status: res.status, route: await res.json(), cli: await cliModels(a.id, cliEnv) };
      }),
    );
    for (const { id, status, route, cli } of pairs) expect({ id, status, route }).toEqual({ id, status: 200, route: cli });

    // The case that was wrong: pi's catalog, not just "default".
    const pi = pairs.find((p) => p.id === "pi")!;
    expect(pi.cli).toMatchObject({
      models: ["default", "anthropic/claude-test-1", "openai/gpt-test-2"],
      source: "catalog",
      exhaustive: true,
    });
    // And every ACP agent's: the models its session/new offers, which the agent alone decides.
    // (ACP agents whose models the session lists; one that takes --model on its command line, copilot-acp, has its CLI's list.)
    const acpIds = adapters
      .filter((a) => a.protocol.kind === "driver" && a.protocol.driver === "acp" && a.models.length === 0)
      .map((a) => a.id);
    expect(acpIds).toContain("gemini-acp");
    for (const id of acpIds)
      expect({ id, ...(pairs.find((p) => p.id === id)!.cli as object) }).toMatchObject({
        id,
        models: ["default", ...ACP_MODELS],
        source: "catalog",
        exhaustive: true,
        modes: ["default", "plan"],
      });
  }, 60_000);

  test("an unknown agent is a 404 AGENT_UNKNOWN", async () => {
    await using tmp = tmpdir();
    const registry = await loadRegistry([]);
    const env = { PATH: "/usr/bin:/bin", HOME: tmp.path, OD_HOME: join(tmp.path, ".od") };
    const runs = new Runs({ registry, log: new RunLog(join(tmp.path, "runs")), slots: new Slots(1), env });
    const app = createApp({ registry, runs, token: TOKEN, allowedHosts: [HOST], env });
    const res = await app.request("/api/agents/nope/models", { headers: { host: HOST, "x-od-token": TOKEN } });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("AGENT_UNKNOWN");
  });
});
