/** The README fits on a screen or three and points at pages that exist; the agent table lists every built-in adapter. */
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { builtinIds } from "../plugins/index.gen.ts";
import { NPM_PACKAGE } from "../src/core/os/install.ts";
import { ROOT } from "./helpers.ts";

const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

test("the README is at most 200 lines, keeps the setup and test commands, and every page it links exists", () => {
  const readme = read("README.md");
  expect(readme.split("\n").length).toBeLessThanOrEqual(200);
  expect(readme).toContain("npm install\nnpm start\n");
  expect(readme).toContain("npm test\n");
  const links = [...readme.matchAll(/\]\(([^)#]+)\)/g)].map((m) => m[1]!).filter((l) => !l.startsWith("http"));
  expect(links.length).toBeGreaterThan(5);
  expect(links.filter((l) => !existsSync(join(ROOT, l)))).toEqual([]);
  // Each docs page leads back.
  for (const page of links.filter((l) => l.startsWith("docs/"))) expect(read(page)).toContain("](../README.md)");
});

test("Install starts with the one command from npm, the package od publishes; the clone comes after it", () => {
  const readme = read("README.md");
  const install = readme.slice(readme.indexOf("\n## Install\n"));
  const oneCommand = install.indexOf(`\n\`\`\`sh\nnpm install -g ${NPM_PACKAGE}\n`);
  expect(oneCommand).toBeGreaterThan(0);
  expect(oneCommand).toBeLessThan(install.indexOf("npm install\nnpm start\n"));
  expect(install.indexOf("npm install\nnpm start\n")).toBeGreaterThan(install.indexOf("\n### From a clone"));
});

test("the agent table (docs/agents.md) lists exactly the built-in adapters", () => {
  const page = read("docs/agents.md");
  const section = page.slice(page.indexOf("\n## Agents\n"), page.indexOf("\n## No agent CLI?"));
  const listed = [...section.matchAll(/^\| `([a-z0-9-]+)` +\|/gm)].map((m) => m[1]);
  expect([...listed].sort()).toEqual([...builtinIds].sort());
  expect(new Set(listed).size).toBe(listed.length);
});
