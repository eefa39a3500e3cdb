/**
 * Model catalogs: an ACP agent's models come from session/new (they were not discovered
 * at all: `od models --agent gemini-acp` was empty), and a model an exhaustive catalog
 * lacks is refused in the plan stage, before anything is spawned. Catalogs are fetched
 * when asked for, never by detection (issue 19: `opencode models` alone costs 4 s).
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadRegistry } from "../../../src/builtins.ts";
import type { CatalogDetection } from "../../../src/core/agents/catalog.ts";
import { catalogOf } from "../../../src/core/agents/catalog.ts";
import { catalogRefusal } from "../../../src/core/agents/catalog-check.ts";
import { detectAll } from "../../../src/core/agents/detect.ts";
import { validateAdapter } from "../../../src/core/contract/adapter.ts";
import { probeAcpSession } from "../../../src/core/protocols/acp-probe.ts";
import { alive, FAKE_ACP, installFake, tmpdir } from "../../helpers.ts";
import { fakeAcpAdapter } from "../../support/fake-adapter.ts";

const PI = { id: "pi", name: "Pi" };

/** Live processes whose environment mentions `text` (the fake's script path is in its environment). */
function processesWith(text: string): number[] {
  return readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/environ`, "utf8").includes(text) && alive(Number(p));
      } catch {
        return false;
      }
    })
    .map(Number);
}

function detection(models: string[], catalog?: CatalogDetection["catalog"]): CatalogDetection {
  return {
    ...{ id: "pi", name: "Pi", status: "ready", installed: true, confident: true, auth: "ok", efforts: [], problems: [] },
    models,
    modelSource: "catalog",
    catalog,
  };
}

const piCatalog = detection(["anthropic/claude-sonnet-4-5", "anthropic/claude-opus-4-6-20260101", "openrouter/qwen/qwen3-coder:exacto"], {
  exhaustive: true,
  match: "pattern",
  from: "`pi --list-models`",
});

describe("catalogRefusal", () => {
  test("a model pi's catalog does not match is MODEL_NOT_AVAILABLE, named, with the valid ones in the hint", () => {
    const err = catalogRefusal(PI, piCatalog, "nosuch/model");
    expect(err?.code).toBe("MODEL_NOT_AVAILABLE");
    expect(err?.message).toBe('Pi has no model "nosuch/model": `pi --list-models` does not list it');
    expect(err?.hint).toStartWith(
      "Valid models: anthropic/claude-sonnet-4-5, anthropic/claude-opus-4-6-20260101, openrouter/qwen/qwen3-coder:exacto.",
    );
    expect(err?.hint).toContain("`od models --agent pi --refresh`");
    expect(catalogRefusal(PI, piCatalog, "gpt-9")?.code).toBe("MODEL_NOT_AVAILABLE");
  });

  test("pi's own matching passes: whole ids, parts of ids, any case, a :thinking suffix, any id under a listed provider", () => {
    for (const model of [
      "anthropic/claude-sonnet-4-5",
      "claude-sonnet-4-5",
      "sonnet",
      "SONNET:high",
      "opus:low",
      "anthropic/claude-brand-new", // pi takes an unknown id under a known provider as a custom id
      "qwen/qwen3-coder:exacto",
      "qwen3-coder",
    ])
      expect({ model, refused: catalogRefusal(PI, piCatalog, model) }).toEqual({ model, refused: undefined });
  });

  test("default, no detection, no catalog and a catalog that is only a hint all pass the model on", () => {
    expect(catalogRefusal(PI, piCatalog, "default")).toBeUndefined();
    expect(catalogRefusal(PI, piCatalog, undefined)).toBeUndefined();
    expect(catalogRefusal(PI, undefined, "nosuch/model")).toBeUndefined();
    expect(catalogRefusal(PI, detection(["a/b"]), "nosuch/model")).toBeUndefined(); // no catalog description (an older cache)
    const hint = detection(["gpt-5"], { exhaustive: false, match: "exact", from: "`codex debug models`" });
    expect(catalogRefusal({ id: "codex", name: "Codex" }, hint, "gpt-custom")).toBeUndefined();
    const aliases = { ...detection(["sonnet"]), modelSource: "aliases" as const };
    expect(catalogRefusal(PI, aliases, "anything")).toBeUndefined();
  });

  test("an ACP catalog matches exactly, by id or display name; the hint names 20 and counts the rest", () => {
    const ids = Array.from({ length: 25 }, (_, i) => `model-${i + 1}`);
    const acp = detection(ids, { exhaustive: true, match: "exact", from: "ACP session/new", names: { "model-1": "Model One" } });
    const agent = { id: "gemini-acp", name: "Gemini CLI (ACP)" };
    expect(catalogRefusal(agent, acp, "model-25")).toBeUndefined();
    expect(catalogRefusal(agent, acp, "Model One")).toBeUndefined();
    const err = catalogRefusal(agent, acp, "model");
    expect(err?.code).toBe("MODEL_NOT_AVAILABLE");
    expect(err?.hint).toStartWith(`Valid models: ${ids.slice(0, 20).join(", ")} …and 5 more; see \`od models --agent gemini-acp\`.`);
  });
});

describe("catalogs are not detection's business", () => {
  test("detectAll runs neither pi's nor opencode's catalog command, nor an ACP agent's session/new", async () => {
    await using tmp = tmpdir();
    const registry = await loadRegistry([]);
    const pick = (id: string) => registry.get(id)!.adapter;
    const bin = join(tmp.path, "bin");
    mkdirSync(bin, { recursive: true });
    const log = join(tmp.path, "ran.log");
    for (const name of ["pi", "opencode"]) {
      // Every call is logged; the catalog commands also answer with a list.
      const script = `#!/bin/sh\necho "${name} $*" >> "${log}"\ncase "$1" in --list-models|models) echo "a/b";; *) echo 1.2.3;; esac\n`;
      writeFileSync(join(bin, name), script);
      chmodSync(join(bin, name), 0o755);
    }
    // pi logged in on disk, so its auth probe (which is `--list-models` too) is not needed.
    mkdirSync(join(tmp.path, ".pi", "agent"), { recursive: true });
    writeFileSync(join(tmp.path, ".pi", "agent", "auth.json"), JSON.stringify({ anthropic: { type: "api_key", key: "k" } }));
    const acp = installFake(tmp.path, "fake-acp", { models: ["x"], turn: [] }, FAKE_ACP);
    const env = { PATH: `${bin}:/usr/bin:/bin`, HOME: tmp.path, OD_HOME: join(tmp.path, ".od") };
    const found = await detectAll([pick("pi"), pick("opencode"), validateAdapter(fakeAcpAdapter)], { ...acp.env, ...env });
    expect(found.map((d) => [d.id, d.status, d.modelSource])).toEqual([
      ["pi", "ready", "none"],
      ["opencode", "ready", "none"],
      ["fake-acp", "ready", "none"],
    ]);
    const ran = readFileSync(log, "utf8");
    expect(ran).not.toContain("--list-models");
    expect(ran).not.toMatch(/^opencode models/m);
    expect(existsSync(join(tmp.path, "fake-acp.record.json"))).toBe(false); // no ACP message was ever sent
  });
});

describe("ACP models, fetched on demand", () => {
  test("session/new's models and modes become the agent's catalog, exhaustive, cached; nothing is prompted", async () => {
    await using tmp = tmpdir();
    const script = { models: ["fast-1", "deep-2"], modelNames: { "deep-2": "Deep Two" }, modes: ["ask", "code"], turn: [] };
    const fake = installFake(tmp.path, "fake-acp", script, FAKE_ACP);
    const adapter = validateAdapter(fakeAcpAdapter);
    const [plain] = await detectAll([adapter], fake.env);
    const d = { ...plain, ...(await catalogOf(adapter, fake.env)) } as CatalogDetection;
    expect(d).toMatchObject({ status: "ready", models: ["fast-1", "deep-2"], modelSource: "catalog" });
    expect(d!.catalog).toEqual({
      exhaustive: true,
      match: "exact",
      from: "ACP session/new",
      names: { "deep-2": "Deep Two" },
      modes: ["ask", "code"],
    });
    const sent = (await Bun.file(join(tmp.path, "fake-acp.record.json")).text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l).method);
    expect(sent).toEqual(["initialize", "session/new"]); // never a prompt
    expect(await catalogOf(adapter, fake.env)).toMatchObject({ models: ["fast-1", "deep-2"] }); // from the cache
    expect(readFileSync(join(tmp.path, "fake-acp.record.json"), "utf8").trim().split("\n")).toHaveLength(2);
  });

  test("models in a `model` config option count too", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-acp", { configModels: ["opt-a", "opt-b"], turn: [] }, FAKE_ACP);
    expect(await catalogOf(validateAdapter(fakeAcpAdapter), fake.env)).toMatchObject({
      models: ["opt-a", "opt-b"],
      modelSource: "catalog",
    });
  });

  test("an agent that refuses session/new (not logged in) keeps no catalog", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-acp", { authError: "Authentication required", models: ["x"], turn: [] }, FAKE_ACP);
    expect(await catalogOf(validateAdapter(fakeAcpAdapter), fake.env)).toEqual({});
  });

  test("a CLI detection knows is logged out is not started for its models", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-acp", { models: ["x"], turn: [] }, FAKE_ACP);
    const loggedOut = validateAdapter({
      ...fakeAcpAdapter,
      detect: { auth: { args: ["status"], classify: () => "missing" as const } },
    });
    const [d] = await detectAll([loggedOut], fake.env);
    expect(d).toMatchObject({ status: "logged-out", models: [], modelSource: "none" });
    expect(await catalogOf(loggedOut, fake.env, { detection: d })).toEqual({});
    expect(existsSync(join(tmp.path, "fake-acp.record.json"))).toBe(false); // no ACP message was ever sent
  });

  test("the probe stops the agent once it has the answer, even one that stays after its stdin closes", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-acp", { models: ["m"], lingerMs: 60_000, turn: [] }, FAKE_ACP);
    const offer = await probeAcpSession({ cmd: [fake.exe], env: fake.env, cwd: tmp.path, timeoutMs: 5000 });
    expect(offer).toEqual({ models: [{ id: "m", name: "m" }], modes: [] });
    expect(processesWith(fake.env.FAKE_SCRIPT!)).toEqual([]);
  });

  test("the probe is bounded: an agent that never answers is given up at the limit", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-acp", { startDelayMs: 60_000, models: ["x"], turn: [] }, FAKE_ACP);
    const started = performance.now();
    const offer = await probeAcpSession({ cmd: [fake.exe], env: fake.env, cwd: tmp.path, timeoutMs: 300 });
    expect(offer).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(3000);
    expect(processesWith(fake.env.FAKE_SCRIPT!)).toEqual([]);
  });
});
