/** Repository rules that keep the layout honest. */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { builtinPlugins, builtinSkillFiles, GENERATED, GENERATED_SKILLS, render, renderSkills } from "../scripts/gen-registry.ts";
import { eventJsonSchema } from "../src/core/events.ts";
import { ROOT } from "./helpers.ts";

function sources(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith(".ts"))
    .map((d) => join(d.parentPath, d.name));
}

const importsOf = (file: string) =>
  [...readFileSync(file, "utf8").matchAll(/^\s*(?:import|export)[^"']*from\s+["']([^"']+)["']/gm)].map((m) => m[1]!);

describe("structure", () => {
  test("core/ imports no hono, no citty, no consola, nothing from cli/ or server/", () => {
    for (const file of sources(join(ROOT, "src/core"))) {
      for (const spec of importsOf(file)) {
        expect(spec, relative(ROOT, file)).not.toMatch(/^(hono|citty|consola)(\/|$)|\/(cli|server)\//);
      }
    }
  });

  test("plugins import only the public plugin API (and their own files)", () => {
    for (const file of sources(join(ROOT, "plugins")).filter((f) => f !== GENERATED)) {
      for (const spec of importsOf(file)) {
        const ok = spec.endsWith("/src/plugin.ts") || spec.startsWith("./");
        expect(ok, `${relative(ROOT, file)} imports ${spec}`).toBe(true);
      }
    }
  });

  test("the generated built-in lists are fresh (run `npm run gen`)", () => {
    expect(readFileSync(GENERATED, "utf8")).toBe(render(builtinPlugins()));
    expect(readFileSync(GENERATED_SKILLS, "utf8")).toBe(renderSkills(builtinSkillFiles()));
  });

  test("the event model exports as JSON Schema, one variant per event type", () => {
    const schema = eventJsonSchema() as { oneOf?: Array<{ properties: { type: { const: string } } }> };
    const types = schema.oneOf?.map((v) => v.properties.type.const).sort();
    expect(types).toEqual(
      [
        "error",
        "permission.decision",
        "permission.request",
        "raw",
        "run.finished",
        "run.result",
        "run.started",
        "session",
        "status",
        "text.delta",
        "thinking.delta",
        "tool.call",
        "tool.result",
        "usage",
      ].sort(),
    );
  });
});
