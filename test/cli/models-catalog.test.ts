/**
 * The compiled binary refuses a model an agent's exhaustive catalog lacks before the
 * agent is started. It used to start pi with `--model nosuch/model` and end as
 * AGENT_CRASHED, exit 1, "the agent's last words are above" with nothing above,
 * although `od models --agent pi` already held pi's catalog. Catalogs are fetched when
 * models are asked for or a run names one (never by `od agents`), and cached 24 h.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DIST_OD, FAKE_ACP, FIXTURES, installFake, tmpdir } from "../helpers.ts";

function od(args: string[], env: Record<string, string>) {
  const p = Bun.spawnSync([DIST_OD, ...args], { env: { NO_COLOR: "1", OD_NO_PLUGINS: "1", ...env }, stdin: "ignore" });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

const PI_TABLE = "provider   model           context\\nanthropic  claude-test-1   200K\\nopenai     gpt-test-2      128K\\n";

/**
 * pi: its version and `--list-models` table (on stderr) from a shell script, each listing logged
 * (`listExit`: the listing fails instead); a run goes to the fake agent, which records that it ran.
 * Logged in on disk, so detection's auth probe (`--list-models` too) does not run.
 */
function installPi(dir: string, listExit = 0) {
  const agent = installFake(dir, "pi-run", [{ replay: join(FIXTURES, "pi/plain.jsonl") }]);
  const pi = join(dir, "bin", "pi");
  const lists = join(dir, "lists.log");
  const list = listExit ? `exit ${listExit}` : `printf '${PI_TABLE}' >&2`;
  writeFileSync(
    pi,
    `#!/bin/sh\ncase "$1" in --version) echo 0.73.1;; --list-models) echo x >> "${lists}"; ${list};; *) exec "${agent.exe}" "$@";; esac\n`,
  );
  chmodSync(pi, 0o755);
  mkdirSync(join(dir, ".pi", "agent"), { recursive: true });
  writeFileSync(join(dir, ".pi", "agent", "auth.json"), JSON.stringify({ anthropic: { type: "api_key", key: "k" } }));
  const record = join(dir, "pi-run.record.json");
  return {
    env: agent.env,
    ran: () => existsSync(record),
    argv: () => (JSON.parse(readFileSync(record, "utf8")) as { argv: string[] }).argv,
    /** How many times pi's catalog was listed. */
    listed: () => (existsSync(lists) ? readFileSync(lists, "utf8").trim().split("\n").length : 0),
  };
}

describe("od run --model against the agent's catalog (compiled)", () => {
  test("a model pi's catalog lacks: exit 2 before pi starts, the model named, the valid ones in the hint; --dry-run too", async () => {
    await using tmp = tmpdir();
    const pi = installPi(tmp.path);
    expect(od(["agents", "--json"], pi.env).code).toBe(0);
    expect(pi.listed()).toBe(0); // detection fetches no catalog
    const models = od(["models", "--agent", "pi", "--json"], pi.env); // fetches pi's catalog and caches it
    expect(JSON.parse(models.out)).toMatchObject({ models: ["default", "anthropic/claude-test-1", "openai/gpt-test-2"], exhaustive: true });
    expect(pi.listed()).toBe(1);
    expect(JSON.parse(od(["models", "--agent", "pi", "--json"], pi.env).out)).toEqual(JSON.parse(models.out));
    expect(pi.listed()).toBe(1); // the second call read the cache
    const agents = JSON.parse(od(["agents", "--json"], pi.env).out) as Array<{ id: string; models: string[] }>;
    expect(agents.find((a) => a.id === "pi")?.models).toEqual(["anthropic/claude-test-1", "openai/gpt-test-2"]); // shown once cached

    const run = od(["run", "--agent", "pi", "--model", "nosuch/model", "--cwd", tmp.path, "go"], pi.env);
    expect(run.code).toBe(2);
    expect(run.err).toContain('Pi has no model "nosuch/model"');
    expect(run.err).toContain("[MODEL_NOT_AVAILABLE]");
    expect(run.err).toContain("hint: Valid models: anthropic/claude-test-1, openai/gpt-test-2.");
    expect(run.err).not.toContain("last words");
    expect(pi.ran()).toBe(false);

    const dry = od(["run", "--agent", "pi", "--model", "nosuch/model", "--dry-run", "--cwd", tmp.path, "go"], pi.env);
    expect({ code: dry.code, out: dry.out }).toEqual({ code: 2, out: "" });
    expect(dry.err).toContain("Valid models: anthropic/claude-test-1, openai/gpt-test-2.");
    expect(pi.ran()).toBe(false);
  });

  test("a model in the catalog (and `default`) runs", async () => {
    await using tmp = tmpdir();
    const pi = installPi(tmp.path);
    od(["models", "--agent", "pi"], pi.env);
    const run = od(["run", "--agent", "pi", "--model", "anthropic/claude-test-1", "--cwd", tmp.path, "go"], pi.env);
    expect(run.code).toBe(0);
    expect(pi.argv()).toContain("anthropic/claude-test-1");
    expect(od(["run", "--agent", "pi", "--model", "default", "--cwd", tmp.path, "go"], pi.env).code).toBe(0);
    expect(pi.argv()).not.toContain("--model");
  });

  test("with no catalog cached, a run naming a model fetches it once, then refuses before pi starts", async () => {
    await using tmp = tmpdir();
    const pi = installPi(tmp.path);
    const run = od(["run", "--agent", "pi", "--model", "nosuch/model", "--cwd", tmp.path, "go"], pi.env);
    expect(run.code).toBe(2);
    expect(run.err).toContain("hint: Valid models: anthropic/claude-test-1, openai/gpt-test-2.");
    expect(pi.ran()).toBe(false);
    expect(pi.listed()).toBe(1);
    const dry = od(["run", "--agent", "pi", "--model", "nosuch/model", "--dry-run", "--cwd", tmp.path, "go"], pi.env);
    expect(dry.code).toBe(2);
    expect(pi.listed()).toBe(1); // cached
  });

  test("a catalog that cannot be fetched passes the model on; `default` fetches nothing", async () => {
    await using tmp = tmpdir();
    const pi = installPi(tmp.path, 1);
    expect(od(["run", "--agent", "pi", "--model", "default", "--cwd", tmp.path, "go"], pi.env).code).toBe(0);
    expect(pi.listed()).toBe(0);
    od(["run", "--agent", "pi", "--model", "nosuch/model", "--cwd", tmp.path, "go"], pi.env);
    expect(pi.ran()).toBe(true);
    expect(pi.argv()).toContain("nosuch/model");
  });

  test("an ACP agent's models from session/new: listed, and any other refused before the agent starts a run", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "codex-acp", { models: ["gpt-acp-1", "gpt-acp-2"], turn: [] }, FAKE_ACP);
    const listed = JSON.parse(od(["models", "--agent", "codex-acp", "--json"], fake.env).out);
    expect(listed).toMatchObject({ models: ["default", "gpt-acp-1", "gpt-acp-2"], source: "catalog", exhaustive: true });
    const run = od(["run", "--agent", "codex-acp", "--model", "gpt-nope", "--cwd", tmp.path, "go"], fake.env);
    expect(run.code).toBe(2);
    expect(run.err).toContain("hint: Valid models: gpt-acp-1, gpt-acp-2.");
    // Only the catalog fetch of `od models` ever spoke to it (the run read the cache): no second session, no prompt.
    const sent = readFileSync(join(tmp.path, "codex-acp.record.json"), "utf8").trim().split("\n");
    expect(sent.map((l) => JSON.parse(l).method)).toEqual(["initialize", "session/new"]);
  });
});
