import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry } from "../../../src/core/agents/registry.ts";
import { selectAgent } from "../../../src/core/agents/select.ts";
import { validateAdapter } from "../../../src/core/contract/adapter.ts";
import { detectAgents, listModels, runAgent } from "../../../src/index.ts";
import { tmpdir } from "../../helpers.ts";

function cli(dir: string, name: string) {
  mkdirSync(join(dir, "bin"), { recursive: true });
  writeFileSync(join(dir, "bin", name), "#!/bin/sh\necho 1.0.0\n");
  chmodSync(join(dir, "bin", name), 0o755);
}
const adapter = (id: string) =>
  validateAdapter({
    id,
    name: id,
    install: `install ${id}`,
    bin: id,
    models: ["m1"],
    efforts: ["low"],
    capabilities: { streaming: true, resume: false, readOnly: false },
    prompt: { via: "stdin" },
    invoke: () => ({ argv: [] }),
    protocol: { kind: "lines", createState: () => ({}), parse: () => [] },
  });

describe("agent selection", () => {
  test("--agent, then OD_AGENT, then config.json, then the first ready agent in preference order", async () => {
    await using tmp = tmpdir();
    cli(tmp.path, "pi");
    cli(tmp.path, "codex");
    const registry = createRegistry(["pi", "codex", "zeta"].map(adapter));
    const env: Record<string, string> = { PATH: join(tmp.path, "bin"), HOME: tmp.path, OD_HOME: join(tmp.path, ".od") };
    expect(await selectAgent(registry, "zeta", { ...env, OD_AGENT: "pi" })).toEqual({ agent: "zeta", because: "--agent" });
    expect(await selectAgent(registry, undefined, { ...env, OD_AGENT: "pi" })).toEqual({ agent: "pi", because: "OD_AGENT" });
    expect(await selectAgent(registry, undefined, env)).toEqual({ agent: "codex", because: "the first ready agent" });
    mkdirSync(env.OD_HOME!, { recursive: true });
    writeFileSync(join(env.OD_HOME!, "config.json"), JSON.stringify({ defaultAgent: "pi" }));
    expect(await selectAgent(registry, undefined, env)).toEqual({ agent: "pi", because: "defaultAgent in config.json" });
    writeFileSync(join(env.OD_HOME!, "config.json"), "{broken");
    await expect(selectAgent(registry, undefined, env)).rejects.toMatchObject({ code: "INVALID_REQUEST" });
  });

  test("nothing ready: one clear message that points to od doctor", async () => {
    await using tmp = tmpdir();
    const registry = createRegistry([adapter("zeta")]);
    await expect(
      selectAgent(registry, undefined, { PATH: tmp.path, HOME: tmp.path, OD_HOME: join(tmp.path, ".od") }),
    ).rejects.toMatchObject({ code: "AGENT_NOT_FOUND", hint: expect.stringContaining("od doctor") });
  });
});

describe("library API", () => {
  test("detectAgents, listModels and runAgent are exported and use the same pipeline", async () => {
    await using tmp = tmpdir();
    cli(tmp.path, "pi");
    const registry = createRegistry([adapter("pi")]);
    const env = { PATH: join(tmp.path, "bin"), HOME: tmp.path, OD_HOME: join(tmp.path, ".od") };
    expect((await detectAgents({ registry, env }))[0]).toMatchObject({ id: "pi", status: "ready", version: "1.0.0" });
    expect(await listModels("pi", { registry, env })).toEqual({ models: ["default", "m1"], efforts: ["low"], source: "aliases" });
    await expect(listModels("nope", { registry, env })).rejects.toMatchObject({ code: "AGENT_UNKNOWN" });
    const events = [];
    for await (const e of runAgent({ agent: "pi", prompt: "x", cwd: tmp.path }, { registry, env })) events.push(e.type);
    expect(events.at(-1)).toBe("run.finished");
  });
});
