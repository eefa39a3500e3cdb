/**
 * What each start of od loads before it does anything (issue 34): the static import closure of an
 * entry (what its `import`s pull in, transitively; an `import()` is a chunk of its own in the
 * binary, read only when reached). Timing is the benchmark's (test/bench/startup.bench.ts); this
 * holds the behaviour that makes it, so a later import cannot quietly bring the heavy modules back.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import { ABOUT } from "../src/cli/about.ts";
import { commands } from "../src/cli/dispatch.ts";
import { ROOT } from "./helpers.ts";

const scanner = new Bun.Transpiler({ loader: "ts" });

/** A bare specifier's package: "hono/cookie" is hono, "@scope/sdk/x" is @scope/sdk. */
const packageOf = (spec: string) =>
  spec
    .split("/")
    .slice(0, spec.startsWith("@") ? 2 : 1)
    .join("/");

/** The files (relative to the repository) and the packages `entry` imports statically, transitively. */
export function staticClosure(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const walk = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    if (!/\.[cm]?[jt]s$/.test(file)) return; // data (package.json) imports nothing
    const source = readFileSync(file, "utf8").replace(/^#!.*\n/, "");
    for (const { kind, path } of scanner.scanImports(source)) {
      // import() and require() are read when reached (a require()d ESM module is evaluated on that call), not at start.
      if (kind === "dynamic-import" || kind === "require-call") continue;
      if (!path.startsWith(".")) packages.add(packageOf(path));
      else if (existsSync(resolve(dirname(file), path))) walk(resolve(dirname(file), path));
      else throw new Error(`${file} imports ${path}, which is not there`);
    }
  };
  walk(resolve(ROOT, entry));
  return { files: [...files].map((f) => relative(ROOT, f)).sort(), packages: [...packages].sort() };
}

/** What no start but its own command's may load: the server, the protocol SDKs, the UI's Markdown. */
const HEAVY = ["hono", "@modelcontextprotocol/sdk", "@agentclientprotocol/sdk", "markdown-it"];
const heavyIn = ({ files, packages }: ReturnType<typeof staticClosure>) => [
  ...packages.filter((p) => HEAVY.includes(p)),
  ...files.filter((f) => f.startsWith("src/server/") || f.startsWith("src/acp/") || f.startsWith("src/mcp/")),
];

describe("what a start of od loads", () => {
  test("od --version (src/main.ts) loads the version and nothing else: no package at all", () => {
    expect(staticClosure("src/main.ts")).toEqual({ files: ["package.json", "src/core/os/version.ts", "src/main.ts"], packages: [] });
  });

  test("od help (src/cli/dispatch.ts) loads no command and no package: citty only when a usage is rendered", () => {
    const help = staticClosure("src/cli/dispatch.ts");
    expect(help.packages).toEqual([]);
    const commandFiles = Object.keys(ABOUT).map((name) => `src/cli/${name}.ts`);
    expect(help.files.filter((f) => commandFiles.includes(f))).toEqual([]);
  });

  test.each([
    ["od agents", "src/cli/agents.ts"],
    ["od run", "src/cli/run.ts"],
  ])("%s (%s) loads no server, no ACP or MCP SDK, no markdown-it", (_name, entry) => {
    const closure = staticClosure(entry);
    expect(closure.files).toContain(entry); // the walk did go somewhere
    expect(closure.files.length).toBeGreaterThan(20);
    expect(heavyIn(closure)).toEqual([]);
  });

  test.each([
    ["od agents", "src/cli/agents.ts"],
    ["od run", "src/cli/run.ts"],
  ])("%s (%s) builds no logger at start: consola is loaded on the first line logged", (_name, entry) => {
    expect(staticClosure(entry).packages).not.toContain("consola");
  });

  test.each([
    ["od agents", "src/cli/agents.ts"],
    ["od run", "src/cli/run.ts"],
  ])("%s (%s) loads neither citty nor node:util (its parser: ~6 ms of every start); cli/argv.ts reads the argv", (_name, entry) => {
    const { packages } = staticClosure(entry);
    expect(packages).not.toContain("citty");
    expect(packages).not.toContain("node:util");
    expect(staticClosure("node_modules/citty/dist/index.mjs").packages).toContain("node:util"); // the walk would see it
  });

  test("od run plans a dry run without what runs an agent: the run service, the history, the renderers (run-live.ts, loaded when one starts)", () => {
    const live = ["src/cli/run-live.ts", "src/od.ts", "src/core/runs/service.ts", "src/core/store/run-log.ts", "src/cli/render.ts"];
    expect(staticClosure("src/cli/run.ts").files.filter((f) => live.includes(f))).toEqual([]);
    expect(staticClosure("src/cli/run-live.ts").files).toEqual(expect.arrayContaining(live));
  });

  test.each([
    ["od agents", "src/cli/agents.ts"],
    ["od run", "src/cli/run.ts"],
  ])(
    "%s (%s) loads no bun:ffi, no node:worker_threads (a plugin file's thread) and not the api loop's turns (its model clients, tools, sessions): a run of them does",
    (_name, entry) => {
      const closure = staticClosure(entry);
      expect(closure.packages).not.toContain("node:worker_threads");
      expect(closure.files).toContain("src/core/api/loop.ts"); // the api agent is listed and planned like any other
      expect(closure.packages).not.toContain("bun:ffi");
      expect(
        closure.files.filter((f) => f.startsWith("src/core/api/") && /turns|tools|anthropic|openai|conversation|libc/.test(f)),
      ).toEqual([]);
      expect(staticClosure("src/core/api/turns.ts").files).toEqual(
        expect.arrayContaining(["src/core/api/tools.ts", "src/core/api/anthropic.ts"]),
      );
    },
  );

  test.each([
    ["od agents", "src/cli/agents.ts"],
    ["od run", "src/cli/run.ts"],
  ])("%s (%s) does not load zod: contract/zod.ts reads it when a schema is first built", (_name, entry) => {
    expect(staticClosure(entry).packages).not.toContain("zod");
    expect(staticClosure("src/core/contract/zod-module.ts").packages).toEqual(["zod"]); // the walk would see it
  });

  test("the walk sees what it guards against: od serve's closure has hono and the server", () => {
    expect(heavyIn(staticClosure("src/cli/serve.ts"))).toEqual(expect.arrayContaining(["hono", "src/server/app.ts"]));
  });

  test("the help's one-line table names every command, and each command says the same of itself", async () => {
    expect(Object.keys(commands).sort()).toEqual(Object.keys(ABOUT).sort());
    for (const [name, load] of Object.entries(commands)) {
      const meta = (await load()).meta as { name?: string; description?: string };
      expect({ name: meta.name, description: meta.description }).toEqual({ name, description: ABOUT[name as keyof typeof ABOUT] });
    }
  });
});
