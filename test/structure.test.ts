import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { ROOT } from "./helpers.ts";

/** Every TypeScript source of the binary: src/ and the built-in plugins (generated lists aside). */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .map((f) => join(dir, f));
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\s(?:type\s)?[^"';]*?from\s*"([^"]+)"|import\(\s*"([^"]+)"\s*\)|(?:^|\n)\s*import\s*"([^"]+)"/g;

/** file -> the files it imports (relative specifiers, resolved), and its bare imports (packages, node:, bun). */
function importsOf(file: string): { local: string[]; bare: string[] } {
  const text = readFileSync(join(ROOT, file), "utf8");
  const local: string[] = [];
  const bare: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3]!;
    if (spec.startsWith(".")) local.push(relative(ROOT, resolve(ROOT, dirname(file), spec)));
    else bare.push(spec);
  }
  return { local, bare };
}

const files = [...sources("src"), ...sources("plugins")].filter((f) => !f.endsWith(".gen.ts"));
const graph = new Map(files.map((f) => [f, importsOf(f)]));

describe("structure", () => {
  test("src/core imports nothing outside src/core but zod, node: and bun", () => {
    const outside: string[] = [];
    for (const [file, { local, bare }] of graph) {
      if (!file.startsWith("src/core/")) continue;
      // package.json is data, not code: the version od reports is the package's.
      for (const target of local) if (!target.startsWith("src/core/") && target !== "package.json") outside.push(`${file} -> ${target}`);
      for (const spec of bare)
        if (!(spec === "zod" || spec === "bun" || spec.startsWith("bun:") || spec.startsWith("node:"))) outside.push(`${file} -> ${spec}`);
    }
    expect(outside).toEqual([]);
  });

  test("plugins reach od only through the public plugin API", () => {
    const reaching: string[] = [];
    for (const [file, { local }] of graph)
      if (file.startsWith("plugins/"))
        for (const target of local) if (!target.startsWith("plugins/") && target !== "src/plugin.ts") reaching.push(`${file} -> ${target}`);
    expect(reaching).toEqual([]);
  });

  test("no import circles", () => {
    const circles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const path: string[] = [];
    const visit = (file: string) => {
      if (state.get(file) === "done") return;
      if (state.get(file) === "open") {
        circles.push([...path.slice(path.indexOf(file)), file].join(" -> "));
        return;
      }
      state.set(file, "open");
      path.push(file);
      for (const next of graph.get(file)?.local ?? []) if (graph.has(next)) visit(next);
      path.pop();
      state.set(file, "done");
    };
    for (const file of graph.keys()) visit(file);
    expect(circles).toEqual([]);
  });

  // The folders of src/core form layers, lowest first: each imports only folders before it (and itself).
  // The contract is under everything; the run service is on top. README (Architecture) says why this order.
  const LAYERS = ["contract", "os", "protocols", "api", "loops", "agents", "skills", "store", "workspace", "remote", "run", "runs"];
  test("the folders of src/core form layers: none imports one above it", () => {
    const folder = (file: string) => file.split("/")[2]!;
    const upward: string[] = [];
    for (const [file, { local }] of graph) {
      if (!file.startsWith("src/core/")) continue;
      const mine = LAYERS.indexOf(folder(file));
      if (mine < 0) {
        upward.push(`${file}: not in a layer (a file directly in src/core, or a folder LAYERS lacks)`);
        continue;
      }
      for (const target of local)
        if (target.startsWith("src/core/") && LAYERS.indexOf(folder(target)) > mine) upward.push(`${file} -> ${target}`);
    }
    expect(upward).toEqual([]);
  });

  // Every run ends with exactly one run.finished: the envelope is put on in one module, and only the
  // run pipeline (src/core/run) builds a run.finished; no surface or service writes one of its own.
  test("createStamper is called in one module, and no run.finished is built outside src/core/run", () => {
    const text = (f: string) => readFileSync(join(ROOT, f), "utf8");
    const stamping = files.filter((f) => /\bcreateStamper\(/.test(text(f)) && !/export function createStamper\(/.test(text(f)));
    expect(stamping).toEqual(["src/core/run/envelope.ts"]);
    const ending = files.filter((f) => /type:\s*"run\.finished"/.test(text(f)) && !f.startsWith("src/core/run/"));
    expect(ending).toEqual([]);
  });

  test("no source file over 250 lines", () => {
    const long = files
      .map((f) => ({ f, lines: readFileSync(join(ROOT, f), "utf8").split("\n").length }))
      .filter(({ lines }) => lines > 250)
      .map(({ f, lines }) => `${f}: ${lines}`);
    expect(long).toEqual([]);
  });
  // od's git must obey nothing an agent wrote: explicit git dir and work tree, no hooks, filters or outside config.
  // That holds because one module runs it; a second `Bun.spawn(["git", ...])` anywhere would bypass it.
  test("git is spawned only by src/core/workspace/git.ts; a target's shell runs it only from src/core/remote/changes-scripts.ts", () => {
    const RUNNER = "src/core/workspace/git.ts";
    const SCRIPTS = "src/core/remote/changes-scripts.ts";
    const naming: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(ROOT, file), "utf8");
      if (file !== RUNNER && /(["'`])git\1/.test(text)) naming.push(`${file}: names "git" as a command`);
      if (file !== SCRIPTS && /["'`][^"'`\n]*\bgit "\$@"/.test(text)) naming.push(`${file}: a shell script runs git`);
    }
    expect(naming).toEqual([]);
    expect(readFileSync(join(ROOT, RUNNER), "utf8")).toContain("Bun.spawn(cmd");
  });
});
