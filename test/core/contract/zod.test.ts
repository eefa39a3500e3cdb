// contract/zod.ts: zod read on first use, the same zod every static import of it gets.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { z as real } from "zod";
import { z } from "../../../src/core/contract/zod.ts";
import { ROOT } from "../../helpers.ts";

const scanner = new Bun.Transpiler({ loader: "ts" });

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.ts$/.test(name) ? [path] : [];
  });
}

describe("zod on first use (contract/zod.ts)", () => {
  test("its members are zod's own, and what they build is zod's: one zod, whoever imports it", () => {
    for (const name of ["object", "string", "enum", "discriminatedUnion", "toJSONSchema", "ZodObject", "ZodError"] as const)
      expect(z[name] as unknown).toBe(real[name]);
    const schema = z.object({ a: z.string() });
    expect(schema).toBeInstanceOf(real.ZodObject);
    expect(schema.parse({ a: "x" })).toEqual({ a: "x" });
    expect(() => schema.parse({ a: 1 })).toThrow(real.ZodError);
    expect("object" in z).toBe(true);
  });

  test("no module of od imports zod but the one contract/zod.ts reads when first asked (a type import aside)", () => {
    const importers = [...sources(join(ROOT, "src")), ...sources(join(ROOT, "plugins"))]
      .filter((file) =>
        scanner.scanImports(readFileSync(file, "utf8").replace(/^#!.*\n/, "")).some((i) => i.path === "zod" || i.path.startsWith("zod/")),
      )
      .map((file) => relative(ROOT, file));
    expect(importers).toEqual(["src/core/contract/zod-module.ts"]);
  });
});
