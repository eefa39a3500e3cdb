import { describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadRegistry } from "../../../src/builtins.ts";
import { MAX_PLUGIN_BYTES, pluginEntries } from "../../../src/core/agents/registry.ts";
import { pluginDirs } from "../../../src/core/os/paths.ts";
import { DIST_OD, installFake, tmpdir } from "../../helpers.ts";

/** A valid adapter's body, as plugin source text. */
const body = (id: string, name = id) => `{
  id: "${id}", name: "${name}", install: "npm i -g ${id}", bin: "${id}",
  capabilities: { streaming: true, resume: false, readOnly: false },
  prompt: { via: "stdin" },
  invoke: (ctx) => ({ argv: ["--json"], stdin: ctx.prompt }),
  protocol: { kind: "lines", createState: () => ({}), parse: (r, _s, line) => r && r.type === "text" ? [{ type: "text.delta", id: "0", text: r.text }] : [{ type: "raw", stream: "stdout", line }] },
}`;

/** Every shape a community plugin can take, plus every way one can be broken. */
function writePlugins(dir: string) {
  mkdirSync(join(dir, "folder-plugin"), { recursive: true });
  mkdirSync(join(dir, "pkg-plugin/lib"), { recursive: true });
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  const files: Record<string, string> = {
    "ts-plugin.ts": `import { defineAdapter } from "od";\ninterface Unused { a: number }\nexport default defineAdapter(${body("ts-agent")});`,
    "js-plugin.js": `export default ${body("js-agent")};`,
    "factory.ts": `export default (od) => od.defineAdapter(${body("factory-agent")});`,
    "folder-plugin/index.ts": `import { helper } from "./helper.ts";\nexport default { ...${body("folder-agent")}, name: helper };`,
    "folder-plugin/helper.ts": `export const helper = "Folder Agent";`,
    "pkg-plugin/package.json": `{ "name": "pkg-plugin", "main": "lib/main.js" }`,
    "pkg-plugin/lib/main.js": `export default ${body("pkg-agent")};`,
    "override.ts": `export default ${body("claude", "My Claude")};`,
    "syntax.ts": `export default { id: "broken", ]`,
    "throws.ts": `throw new Error("boom at import time");`,
    "invalid.ts": `export default { id: "Not Kebab", name: "" };`,
    "no-default.ts": `export const x = 1;`,
    "notes.md": "not a plugin",
    "types.d.ts": "export type X = 1;",
    "_private.ts": "throw new Error('skipped');",
    "node_modules/dep.js": "throw new Error('skipped');",
  };
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
}

function expectLoaded(
  adapters: Array<{ id: string; source: string; replaced?: string }>,
  errors: Array<{ path: string; error: string }>,
  dir: string,
) {
  const ids = adapters.map((a) => a.id);
  for (const id of ["ts-agent", "js-agent", "factory-agent", "folder-agent", "pkg-agent", "claude", "pi"]) expect(ids).toContain(id);
  const claude = adapters.find((a) => a.id === "claude")!;
  expect(claude.source).toBe(join(dir, "override.ts"));
  expect(claude.replaced).toContain("built-in");
  const byFile = Object.fromEntries(errors.map((e) => [e.path.slice(dir.length + 1), e.error]));
  expect(Object.keys(byFile).sort()).toEqual(["invalid.ts", "no-default.ts", "syntax.ts", "throws.ts"]);
  expect(byFile["throws.ts"]).toContain("boom at import time");
  expect(byFile["syntax.ts"]).toMatch(/line 1/);
  expect(byFile["invalid.ts"]).toContain("kebab-case");
  expect(byFile["no-default.ts"]).toContain("no default export");
}

describe("plugin loading", () => {
  test("pluginEntries: files, folders (package.json main, else index), skipping the rest", async () => {
    await using tmp = tmpdir();
    writePlugins(tmp.path);
    const names = pluginEntries(tmp.path).map((p) => p.slice(tmp.path.length + 1));
    expect(names).toEqual([
      "factory.ts",
      "folder-plugin/index.ts",
      "invalid.ts",
      "js-plugin.js",
      "no-default.ts",
      "override.ts",
      "pkg-plugin/lib/main.js",
      "syntax.ts",
      "throws.ts",
      "ts-plugin.ts",
    ]);
    expect(pluginEntries(join(tmp.path, "missing"))).toEqual([]);
  });

  test("every form loads, every broken plugin is reported with its path, none stops the others", async () => {
    await using tmp = tmpdir();
    writePlugins(tmp.path);
    const registry = await loadRegistry([tmp.path]);
    expectLoaded(
      registry.list().map((e) => ({ id: e.adapter.id, source: e.source, replaced: e.replaced })),
      registry.errors,
      tmp.path,
    );
    expect(registry.get("folder-agent")?.adapter.name).toBe("Folder Agent");
  });

  test("a plugin that never finishes loading, or is far too large, is reported and waited for no longer", async () => {
    await using tmp = tmpdir();
    writeFileSync(join(tmp.path, "never.ts"), "await new Promise(() => {});\nexport default {};");
    writeFileSync(join(tmp.path, "factory-never.ts"), "export default () => new Promise(() => {});");
    writeFileSync(join(tmp.path, "huge.js"), `export default ${body("huge-agent")};\n//${"x".repeat(MAX_PLUGIN_BYTES)}`);
    writeFileSync(join(tmp.path, "fine.ts"), `export default ${body("fine-agent")};`);
    const registry = await loadRegistry([tmp.path], { timeoutMs: 200 });
    expect(registry.get("fine-agent")).toBeDefined();
    expect(registry.get("huge-agent")).toBeUndefined();
    const byFile = Object.fromEntries(registry.errors.map((e) => [e.path.slice(tmp.path.length + 1), e.error]));
    expect(byFile["never.ts"]).toContain("did not finish loading within 200 ms");
    expect(byFile["factory-never.ts"]).toContain("did not finish loading within 200 ms");
    expect(byFile["huge.js"]).toContain("over the 5242880-byte limit");
  });

  test("a plugin that calls process.exit while loading is blamed for it; od and the built-ins go on", async () => {
    await using tmp = tmpdir();
    writeFileSync(join(tmp.path, "exits.ts"), `process.exit(7);\nexport default ${body("exit-agent")};`);
    writeFileSync(join(tmp.path, "fine.ts"), `export default ${body("fine-agent")};`);
    const registry = await loadRegistry([tmp.path]);
    expect(registry.errors).toEqual([
      { path: join(tmp.path, "exits.ts"), error: expect.stringContaining("called process.exit(7) while loading") },
    ]);
    expect(registry.get("fine-agent")?.source).toBe(join(tmp.path, "fine.ts"));
    for (const id of ["claude", "pi", "codex"]) expect(registry.get(id)?.source).toBe("builtin");
  });

  test("plugins load at once within one budget: three that never finish cost one budget, not three", async () => {
    await using tmp = tmpdir();
    for (const n of [1, 2, 3]) writeFileSync(join(tmp.path, `never-${n}.ts`), "await new Promise(() => {});\nexport default {};");
    writeFileSync(join(tmp.path, "fine.ts"), `export default ${body("fine-agent")};`);
    const budget = 1000;
    const t0 = performance.now();
    const registry = await loadRegistry([tmp.path], { timeoutMs: budget });
    expect(performance.now() - t0).toBeLessThan(2 * budget);
    expect(registry.errors.map((e) => e.path.slice(tmp.path.length + 1)).sort()).toEqual(["never-1.ts", "never-2.ts", "never-3.ts"]);
    for (const e of registry.errors) expect(e.error).toContain(`did not finish loading within ${budget} ms`);
    expect(registry.get("fine-agent")).toBeDefined();
  });

  test("the compiled binary: a plugin that exits or spins at import is named by `od plugins`, and `od run` goes on", async () => {
    await using tmp = tmpdir();
    const dir = join(tmp.path, "plugins");
    mkdirSync(dir);
    writeFileSync(join(dir, "exits.ts"), `process.exit(7);\nexport default ${body("exit-agent")};`);
    writeFileSync(join(dir, "spins.ts"), `while (true) {}\nexport default ${body("spin-agent")};`);
    writeFileSync(join(dir, "fine.ts"), `export default ${body("fine-agent")};`);
    const env = { PATH: "/usr/bin:/bin", HOME: tmp.path, OD_PLUGINS_DIR: dir };
    const t0 = performance.now();
    const proc = Bun.spawnSync([DIST_OD, "plugins", "--json"], { env, cwd: tmp.path, timeout: 15_000 });
    expect(performance.now() - t0).toBeLessThan(10_000);
    expect(proc.exitCode).toBe(1); // not 7: broken plugins make `od plugins` exit 1, as before
    const out = JSON.parse(proc.stdout.toString());
    const byFile = Object.fromEntries(out.errors.map((e: { path: string; error: string }) => [e.path.slice(dir.length + 1), e.error]));
    expect(byFile["exits.ts"]).toContain("called process.exit(7) while loading");
    expect(byFile["spins.ts"]).toContain("did not finish loading");
    expect(out.adapters.map((a: { id: string }) => a.id)).toEqual(expect.arrayContaining(["claude", "fine-agent"]));
    rmSync(join(dir, "spins.ts")); // it costs every start the whole budget: reported, not waited for twice here
    const run = Bun.spawnSync([DIST_OD, "run", "--agent", "claude", "--dry-run", "hi"], { env, cwd: tmp.path, timeout: 15_000 });
    expect(run.exitCode).toBe(0);
    expect(run.stdout.toString()).toContain("claude");
  }, 40_000);

  test("OD_NO_PLUGINS=1 loads the built-ins alone: the way out when a plugin hangs od at import", () => {
    expect(pluginDirs({ HOME: "/home/x", OD_NO_PLUGINS: "1" })).toEqual([]);
    expect(pluginDirs({ HOME: "/home/x", OD_NO_PLUGINS: "0" })[0]).toBe("/home/x/.open-design/plugins");
  });

  test("the compiled binary loads the same plugins from $OD_PLUGINS_DIR and ~/.open-design/plugins", async () => {
    await using tmp = tmpdir();
    const dir = join(tmp.path, "plugins");
    mkdirSync(dir);
    writePlugins(dir);
    const home = join(tmp.path, "home");
    mkdirSync(join(home, ".open-design/plugins"), { recursive: true });
    writeFileSync(
      join(home, ".open-design/plugins/home-agent.ts"),
      `import { defineAdapter } from "od";\nexport default defineAdapter(${body("home-agent")});`,
    );
    const proc = Bun.spawnSync([DIST_OD, "plugins", "--json"], {
      env: { PATH: "/usr/bin:/bin", HOME: home, OD_PLUGINS_DIR: dir },
      cwd: tmp.path,
    });
    const out = JSON.parse(proc.stdout.toString());
    expect(proc.exitCode).toBe(1); // broken plugins make `od plugins` exit non-zero
    expectLoaded(out.adapters, out.errors, dir);
    expect(out.adapters.find((a: { id: string }) => a.id === "home-agent").source).toBe(join(home, ".open-design/plugins/home-agent.ts"));
  });

  test("a community adapter dropped into ~/.open-design/plugins runs through the compiled binary (importing od/plugin)", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "home-agent", [{ read: "all" }, { stdout: { type: "text", text: "hello from a plugin" } }]);
    mkdirSync(join(tmp.path, ".open-design/plugins"), { recursive: true });
    writeFileSync(
      join(tmp.path, ".open-design/plugins/home-agent.ts"),
      `import { defineAdapter } from "od/plugin";\nexport default defineAdapter(${body("home-agent")});`,
    );
    // A neighbour that throws from a timer later must not take the run down.
    writeFileSync(
      join(tmp.path, ".open-design/plugins/late-throw.ts"),
      `setTimeout(() => { throw new Error("late boom"); }, 1);\nexport default ${body("late-agent")};`,
    );
    const { OD_HOME: _, ...env } = fake.env; // HOME is tmp: the plugin is found in ~/.open-design/plugins
    const proc = Bun.spawnSync([DIST_OD, "run", "--agent", "home-agent", "--cwd", tmp.path, "say hi"], { env });
    expect(proc.stdout.toString()).toBe("hello from a plugin\n");
    expect(proc.exitCode).toBe(0);
    expect(proc.stderr.toString()).toContain("late boom");
    expect(fake.recorded().stdin).toEqual(["say hi"]);
  });
});
