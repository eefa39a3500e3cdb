import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../helpers.ts";

/** The CLI from source (no rebuild needed), for runs whose failure mode is freezing the process that hosts them. */
export const OD_SOURCE = [process.execPath, join(ROOT, "src/main.ts")];

/**
 * A community plugin's source: an adapter over the fake agent ({"t":"text","v":...} lines), with
 * `parse` and `invoke` bodies to vary. `parse` gets (r, s, line); `invoke` gets ctx. It imports the
 * API from `od/plugin` unless `from` says `od`.
 */
export function pluginSource(
  id: string,
  opts: { parse?: string; invoke?: string; finish?: string; top?: string; format?: "text"; from?: "od/plugin" | "od" } = {},
): string {
  const parse =
    opts.parse ?? `return r && r.t === "text" ? [{ type: "text.delta", id: "t", text: r.v }] : [{ type: "raw", stream: "stdout", line }];`;
  const invoke = opts.invoke ?? `return { argv: [], stdin: ctx.prompt };`;
  return `import { defineAdapter, defineLinesProtocol } from "${opts.from ?? "od/plugin"}";
${opts.top ?? ""}
export default defineAdapter({
  id: "${id}", name: "${id} plugin", install: "nothing", bin: "${id}",
  capabilities: { streaming: true, resume: false, readOnly: true },
  prompt: { via: "stdin" },
  invoke: (ctx) => { ${invoke} },
  protocol: defineLinesProtocol({
    ${opts.format ? `format: "${opts.format}",` : ""}
    createState: () => ({ n: 0 }),
    parse: (r, s, line) => { ${parse} },
    ${opts.finish ? `finish: (s) => { ${opts.finish} },` : ""}
  }),
});
`;
}

/** Writes plugin files into `<home>/.open-design/plugins` (where od looks with HOME=home, OD_HOME unset) and returns that folder. */
export function writePlugins(home: string, files: Record<string, string>): string {
  const dir = join(home, ".open-design/plugins");
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

/** JSON lines from a process's stdout. */
export function jsonLines(text: string): Array<Record<string, unknown>> {
  return text
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l));
}

/** The code blocks of a source file's TSDoc `@example`s, each with the file name its first line gives (`// ~/…/plugins/<name>`). */
export function docExamples(path: string): Array<{ name: string; code: string }> {
  const text = readFileSync(path, "utf8");
  return [...text.matchAll(/ \* ```ts\n([\s\S]*?) \* ```/g)].map((m) => {
    const code = m[1]!.replace(/^ \*( |$)/gm, "");
    return { name: code.match(/^\/\/ \S*\/plugins\/(\S+)/)?.[1] ?? "", code };
  });
}

/** Lines of code: not blank, not a comment (`//`, or a line of a block comment). */
export function linesOfCode(text: string): number {
  return text.split("\n").filter((line) => {
    const l = line.trim();
    return l !== "" && !l.startsWith("//") && !l.startsWith("/*") && !l.startsWith("*");
  }).length;
}
