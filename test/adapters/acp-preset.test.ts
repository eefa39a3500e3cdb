/**
 * An ACP agent is a preset plus its differences (defineAcpAgent): every built-in adapter that
 * speaks ACP is written with it, and stays short. Lines of code are the lines that are not blank
 * and not comments: the header comments that cite each adapter's evidence are not counted.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { builtinAdapters } from "../../plugins/index.gen.ts";
import { loadRegistry } from "../../src/builtins.ts";
import { validateAdapter } from "../../src/core/contract/adapter.ts";
import { ROOT, tmpdir } from "../helpers.ts";
import { docExamples, linesOfCode, writePlugins } from "../plugins/support.ts";

/** The most lines of code a new ACP adapter needs, and the median the built-ins may not pass. */
const NEW_ACP_ADAPTER = 25;
/** No ACP built-in is longer (Devin's: its own login probe, and its refusal of a build without `acp`). */
const LONGEST = 33;

const acp = builtinAdapters
  .map(validateAdapter)
  .filter((a) => a.protocol.kind === "driver" && a.protocol.driver === "acp")
  .map((a) => {
    const file = existsSync(join(ROOT, "plugins", `${a.id}.ts`)) ? `plugins/${a.id}.ts` : `plugins/${a.id}/index.ts`;
    const text = readFileSync(join(ROOT, file), "utf8");
    return { id: a.id, file, text, lines: linesOfCode(text) };
  });

describe("ACP adapters as a preset plus their differences", () => {
  test("every built-in ACP adapter is written with defineAcpAgent", () => {
    expect(acp.length).toBeGreaterThanOrEqual(21);
    expect(acp.filter((a) => !a.text.includes("defineAcpAgent(")).map((a) => a.file)).toEqual([]);
  });

  test(`the median ACP adapter is at most ${NEW_ACP_ADAPTER} lines of code, the longest at most ${LONGEST}`, () => {
    const lines = acp.map((a) => a.lines).sort((x, y) => x - y);
    const mid = lines.length / 2;
    const median = lines.length % 2 ? lines[Math.floor(mid)]! : (lines[mid - 1]! + lines[mid]!) / 2;
    expect(median).toBeLessThanOrEqual(NEW_ACP_ADAPTER);
    expect(acp.filter((a) => a.lines > LONGEST).map((a) => `${a.file}: ${a.lines}`)).toEqual([]);
  });

  test(`a new ACP adapter (src/plugin.ts's example) is one file of at most ${NEW_ACP_ADAPTER} lines, and loads as a plugin`, async () => {
    const example = docExamples(join(ROOT, "src/plugin.ts")).find((e) => e.code.includes("defineAcpAgent("))!;
    expect(linesOfCode(example.code)).toBeLessThanOrEqual(NEW_ACP_ADAPTER);
    await using tmp = tmpdir();
    const registry = await loadRegistry([writePlugins(tmp.path, { [example.name]: example.code })]);
    expect(registry.errors).toEqual([]);
    const adapter = registry.get("my-acp-agent")!.adapter;
    expect(adapter.protocol).toEqual({
      kind: "driver",
      driver: "acp",
      options: { modes: { "read-only": { configId: "mode", value: "plan" }, edit: { configId: "mode", value: "default" } } },
    });
    expect(adapter.invoke({ prompt: "p", cwd: "/", mode: "edit", bin: "my-acp-agent" })).toEqual({ argv: ["acp"] });
  });

  test("the line counter skips blank lines and comments, not code with a comment after it", () => {
    const text = ["/**", " * evidence", " */", "const a = 1;", "", "  // why", '  b: "x", // note', "/* one */"].join("\n");
    expect(linesOfCode(text)).toBe(2);
  });
});
