/**
 * Crush against a fake `crush` (test/bin/fake-agent.ts): `@charmland/crush` cannot be installed
 * here (its install step downloads the binary from outside the registry), so its detection and
 * failure paths are proven with fakes shaped by its source (internal/cmd/run.go, internal/app/app.go).
 * Detection: found (version, a provider key or Crush's own provider config), missing. Runs: the
 * prompt on stdin with `run --quiet`, read-only and edit refused (headless it auto-approves every
 * tool), no provider configured → AGENT_AUTH_REQUIRED with the login hint, cancel.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadRegistry } from "../../src/builtins.ts";
import { detectOne } from "../../src/core/agents/detect.ts";
import { createRegistry } from "../../src/core/agents/registry.ts";
import { alive, collect, finished, installFake, ofType, tmpdir } from "../helpers.ts";
import { runAgent } from "../support/run.ts";

const entry = (await loadRegistry([])).get("crush")!;
const crush = entry.adapter;
const registry = createRegistry([entry]);
const ctx = { prompt: "-x", cwd: "/work/project", bin: "/usr/bin/crush" };
const VERSION = [{ raw: "crush version v0.90.0\n" }];
// fang's error box for the error `crush run` returns with no provider configured (internal/cmd/run.go), exit 1.
const NO_PROVIDER = [
  { read: "all" },
  { stderr: "\n  ERROR  \n\n  No providers configured - please run 'crush' to set up a provider interactively.\n\n" },
  { exit: 1 },
];

describe("crush: detection", () => {
  test("found: the version from `crush --version`, logged in by a provider key", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "crush", VERSION);
    const d = await detectOne(crush, { ...fake.env, ANTHROPIC_API_KEY: "sk-test" });
    expect(d).toMatchObject({ status: "ready", version: "0.90.0", auth: "ok" });
  });

  test("logged in by Crush's own provider config (~/.local/share/crush/crush.json), never read beyond `providers`", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "crush", VERSION);
    mkdirSync(join(tmp.path, ".local/share/crush"), { recursive: true });
    writeFileSync(join(tmp.path, ".local/share/crush/crush.json"), JSON.stringify({ providers: { hyper: { api_key: "x" } } }));
    expect((await detectOne(crush, fake.env)).auth).toBe("ok");
  });

  test("no key and no config: the login is unknown (a crush.json in the project may hold one), not refused", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "crush", VERSION);
    expect((await detectOne(crush, fake.env)).auth).toBe("unknown");
  });

  test("missing: not on PATH", async () => {
    await using tmp = tmpdir();
    const d = await detectOne(crush, { PATH: join(tmp.path, "bin"), HOME: tmp.path });
    expect(d.status).toBe("missing");
    expect(d.problems[0]?.code).toBe("AGENT_NOT_FOUND");
  });
});

describe("crush: modes and runs against the fake", () => {
  test("argv: `run --quiet`, the model only when asked; never --yolo (a root flag `run` does not take)", () => {
    expect(crush.invoke({ ...ctx, mode: "full" })).toEqual({ argv: ["run", "--quiet"], stdin: "-x" });
    expect(crush.invoke({ ...ctx, mode: "full", model: "anthropic/claude-sonnet-4" }).argv).toEqual([
      "run",
      "--quiet",
      "--model",
      "anthropic/claude-sonnet-4",
    ]);
    expect(crush.capabilities).toMatchObject({ readOnly: false, edit: false, resume: false });
  });

  for (const mode of ["read-only", "edit"] as const)
    test(`${mode} without the kernel sandbox is refused before anything starts: headless, Crush approves every tool`, async () => {
      await using tmp = tmpdir();
      const fake = installFake(tmp.path, "crush", [{ raw: "should not run\n" }]);
      let events: Awaited<ReturnType<typeof collect>> = [];
      let thrown: unknown;
      try {
        const env = { ...fake.env, OD_SANDBOX: "off" }; // with the kernel, test/adapters/kernel-modes.test.ts
        events = await collect(runAgent({ agent: "crush", prompt: "x", cwd: tmp.path, mode }, { registry, env }));
      } catch (err) {
        thrown = err;
      }
      const error = (thrown as { code?: string } | undefined) ?? ofType(events, "error")[0];
      expect(error).toMatchObject({ code: "INVALID_REQUEST" });
      expect(existsSync(join(tmp.path, "crush.record.json"))).toBe(false); // never spawned
      expect(ofType(events, "text.delta")).toEqual([]);
    });

  test("full: the prompt goes on stdin, and stdout comes back as the answer", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "crush", [{ read: "all" }, { raw: "OD_LIVE_CHAT_OK\n\n" }]);
    const events = await collect(runAgent({ agent: "crush", prompt: "Say hi", cwd: tmp.path, mode: "full" }, { registry, env: fake.env }));
    expect(finished(events).status).toBe("succeeded");
    expect(fake.recorded()).toMatchObject({ argv: ["run", "--quiet"], stdin: ["Say hi"] });
    expect(
      ofType(events, "text.delta")
        .map((e) => e.text)
        .join(""),
    ).toContain("OD_LIVE_CHAT_OK");
  });

  test("no provider configured: AGENT_AUTH_REQUIRED with the login hint", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "crush", NO_PROVIDER);
    const events = await collect(runAgent({ agent: "crush", prompt: "x", cwd: tmp.path, mode: "full" }, { registry, env: fake.env }));
    expect(ofType(events, "error")[0]).toMatchObject({
      code: "AGENT_AUTH_REQUIRED",
      message: expect.stringContaining("No providers configured"),
      hint: expect.stringContaining("crush login"),
    });
    expect(finished(events).status).toBe("failed");
  });

  test("cancel: the run ends cancelled and the agent's process is gone", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "crush", [{ read: "all" }, { raw: "working\n" }, { hang: true }]);
    const controller = new AbortController();
    const events = [];
    const opts = { registry, env: fake.env, signal: controller.signal, ladder: { intMs: 200, termMs: 200, killMs: 300 } };
    for await (const e of runAgent({ agent: "crush", prompt: "x", cwd: tmp.path, mode: "full" }, opts)) {
      events.push(e);
      if (e.type === "text.delta") controller.abort();
    }
    expect(finished(events).status).toBe("cancelled");
    const { pid } = fake.recorded() as { pid?: number };
    for (const p of [...fake.pids(), ...(pid ? [pid] : [])]) expect(alive(p)).toBe(false);
  });
});
