/**
 * One plugin API: `od/plugin` (the package's subpath, src/plugin.ts), the module a plugin imports
 * at run time (`od/plugin`, and `od` for plugins written before it), in od's thread and in the
 * plugin's own, and a factory's argument are the same members, listed once.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { loadRegistry } from "../../src/builtins.ts";
import * as listed from "../../src/core/agents/plugin-api.ts";
import * as published from "../../src/plugin.ts";
import { collect, finished, installFake, ofType, ROOT, tmpdir } from "../helpers.ts";
import { runAgent } from "../support/run.ts";
import { docExamples, pluginSource, writePlugins } from "./support.ts";

const members = Object.keys(published).sort();
/** A plugin's line that names the members it was given (`od` is the module's namespace, or the factory's argument). */
const NAMES = `Object.keys(od).filter((k) => k !== "default").sort().join(",")`;

describe("the plugin API", () => {
  test("src/plugin.ts publishes exactly the one list in core/agents/plugin-api.ts", () => {
    expect(members).toEqual(Object.keys(listed).sort());
    for (const name of ["defineAdapter", "defineLinesProtocol", "z", "classifyStderr", "OdError", "VERSION", "claudeStream", "str"])
      expect(members).toContain(name);
    expect(members).not.toContain("version"); // one spelling: VERSION, as the library has it
  });

  test("the package exports `od` (the library) and `od/plugin` (the plugin API)", () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { exports: Record<string, string> };
    expect(pkg.exports).toEqual({ ".": "./src/index.ts", "./plugin": "./src/plugin.ts" });
  });

  for (const from of ["od/plugin", "od"] as const)
    test(`a community plugin importing "${from}" loads, runs, and is given every member in both threads`, async () => {
      await using tmp = tmpdir();
      const fake = installFake(tmp.path, "my-agent", [{ read: "all" }, { stdout: { t: "text", v: "hello" } }]);
      const source = pluginSource("my-agent", {
        from,
        top: `import * as od from "${from}";\nconst names = ${NAMES};`,
        // The line parser runs in the plugin's own thread: what it names is that thread's module.
        finish: `return [{ type: "status", label: "members", detail: names }];`,
      }).replace(`install: "nothing"`, "install: names");
      const dir = writePlugins(tmp.path, { "my-agent.ts": source });
      const registry = await loadRegistry([dir]);
      expect(registry.errors).toEqual([]);
      expect(registry.get("my-agent")?.adapter.install).toBe(members.join(","));
      const events = await collect(runAgent({ agent: "my-agent", prompt: "hi", cwd: tmp.path }, { registry, env: fake.env }));
      expect(ofType(events, "text.delta").map((e) => e.text)).toEqual(["hello"]);
      expect(ofType(events, "status").find((e) => e.label === "members")?.detail).toBe(members.join(","));
      expect(finished(events)).toMatchObject({ status: "succeeded" });
    });

  test("a factory plugin's argument is the same members", async () => {
    await using tmp = tmpdir();
    const dir = writePlugins(tmp.path, {
      "factory.ts": `export default (od) => od.defineAdapter({ id: "factory-agent", name: "f", install: ${NAMES}, bin: "f",
        capabilities: { streaming: true, resume: false, readOnly: false }, prompt: { via: "stdin" },
        invoke: (ctx) => ({ argv: [], stdin: ctx.prompt }),
        protocol: od.defineLinesProtocol({ createState: () => ({}), parse: () => [] }) });`,
    });
    const registry = await loadRegistry([dir]);
    expect(registry.errors).toEqual([]);
    expect(registry.get("factory-agent")?.adapter.install).toBe(members.join(","));
  });

  test("the adapters src/plugin.ts shows as examples load as community plugins", async () => {
    await using tmp = tmpdir();
    const examples = docExamples(join(ROOT, "src/plugin.ts"));
    expect(examples.map((e) => e.name)).toEqual(["my-agent.ts", "my-acp-agent.ts"]);
    const registry = await loadRegistry([writePlugins(tmp.path, Object.fromEntries(examples.map((e) => [e.name, e.code])))]);
    expect(registry.errors).toEqual([]);
    const line = registry.get("my-agent")!.adapter;
    expect(line.invoke({ prompt: "p", cwd: "/", mode: "edit", bin: "my-agent", model: "m" })).toEqual({
      argv: ["--json", "--model", "m"],
      stdin: "p",
    });
    expect(registry.get("my-acp-agent")?.adapter.protocol).toMatchObject({ kind: "driver", driver: "acp" });
  });
});
