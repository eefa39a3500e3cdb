/**
 * Qodo Command: detection, the missing login and the argv against the real `qodo` 0.36.0 when the
 * live lane has installed it (~/.cache/od-live; skipped otherwise), and cancel against a fake
 * (the real CLI exits at once here: it needs Qodo's servers for every turn).
 */
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { loadRegistry } from "../../src/builtins.ts";
import { detectContext, detectOne } from "../../src/core/agents/detect.ts";
import { createRegistry } from "../../src/core/agents/registry.ts";
import { alive, collect, finished, installFake, ofType, tmpdir } from "../helpers.ts";
import { cacheRoot } from "../live/clis.ts";
import { runAgent } from "../support/run.ts";

const entry = (await loadRegistry([])).get("qodo")!;
const qodo = entry.adapter;
const registry = createRegistry([entry]);
const REAL_BIN = join(cacheRoot(), "@qodo", "command@0.36.0", "node_modules", ".bin");
const real = existsSync(join(REAL_BIN, "qodo")) && Bun.which("node") ? test : test.skip;
const realEnv = (home: string) => ({
  PATH: [REAL_BIN, dirname(Bun.which("node") ?? "/usr/bin/node"), "/usr/bin", "/bin"].join(":"),
  HOME: home,
});
const NOT_RUN = { exitCode: null, output: "", timedOut: false, failedToStart: true };
const ctx = { prompt: "-x", cwd: "/work/project", bin: "/usr/bin/qodo" };

describe("qodo: the real CLI (0.36.0)", () => {
  real(
    "detection: the version from its package.json, no login (no key file, no variable), without starting it",
    async () => {
      await using tmp = tmpdir();
      const started: string[] = [];
      const ctx = detectContext(realEnv(tmp.path), { probe: async (cmd) => (started.push(cmd.join(" ")), NOT_RUN) });
      const d = await detectOne(qodo, realEnv(tmp.path), ctx);
      expect(started).toEqual([]);
      expect(d.version).toBe("0.36.0");
      expect(d.status).toBe("logged-out");
      expect(d.problems[0]).toMatchObject({ code: "AGENT_AUTH_REQUIRED", hint: expect.stringContaining("qodo login") });
    },
    20_000,
  ); // the real CLI's own start takes seconds on a busy machine

  real(
    "no key: the run fails AGENT_AUTH_REQUIRED with the login hint",
    async () => {
      await using tmp = tmpdir();
      const events = await collect(
        runAgent({ agent: "qodo", prompt: "Say hi", cwd: tmp.path, mode: "read-only" }, { registry, env: realEnv(tmp.path) }),
      );
      expect(ofType(events, "error")[0]).toMatchObject({ code: "AGENT_AUTH_REQUIRED", hint: expect.stringContaining("qodo login") });
      expect(finished(events).status).toBe("failed");
    },
    20_000,
  );
});

describe("qodo: modes and cancel", () => {
  test("--permissions r / rw / rwx (and -y only in full); the prompt after --", () => {
    expect(qodo.invoke({ ...ctx, mode: "read-only" }).argv).toEqual(["--ci", "--permissions=r", "--", "-x"]);
    expect(qodo.invoke({ ...ctx, mode: "edit" }).argv).toEqual(["--ci", "--permissions=rw", "--", "-x"]);
    expect(qodo.invoke({ ...ctx, mode: "full", model: "gpt-5.4" }).argv).toEqual([
      "--ci",
      "--permissions=rwx",
      "-y",
      "--model=gpt-5.4",
      "--",
      "-x",
    ]);
  });

  test("cancel: the run ends cancelled and the agent's process is gone", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "qodo", [{ raw: "working\n" }, { hang: true }]);
    const controller = new AbortController();
    const events = [];
    const opts = { registry, env: fake.env, signal: controller.signal, ladder: { intMs: 200, termMs: 200, killMs: 300 } };
    for await (const e of runAgent({ agent: "qodo", prompt: "x", cwd: tmp.path }, opts)) {
      events.push(e);
      if (e.type === "text.delta") controller.abort();
    }
    expect(finished(events).status).toBe("cancelled");
    const { pid } = fake.recorded() as { pid?: number };
    for (const p of [...fake.pids(), ...(pid ? [pid] : [])]) expect(alive(p)).toBe(false);
  });
});
