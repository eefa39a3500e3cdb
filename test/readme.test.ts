/** The README's agent table tells, for every built-in adapter, how it is driven and proven: none missing, none stale. */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { builtinIds } from "../plugins/index.gen.ts";
import { ROOT } from "./helpers.ts";

test("the README's agent table lists exactly the built-in adapters", () => {
  const readme = readFileSync(join(ROOT, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("\n## Agents\n"), readme.indexOf("\n## Adapters and plugins\n"));
  const listed = [...section.matchAll(/^\| `([a-z0-9-]+)` +\|/gm)].map((m) => m[1]);
  expect([...listed].sort()).toEqual([...builtinIds].sort());
  expect(new Set(listed).size).toBe(listed.length);
});
