/** `od doctor` names this od's version and origin, and a newer od installed beside it (the compiled binary, end to end). */
import { expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { NPM_PACKAGE } from "../../src/core/os/install.ts";
import { VERSION } from "../../src/core/os/version.ts";
import { DIST_OD, ROOT, tmpdir } from "../helpers.ts";

test("od doctor: this od, and a newer one npm installed beside it (on PATH, and in npm's prefix off PATH)", async () => {
  await using tmp = tmpdir();
  const install = (prefix: string, version: string) => {
    const pkg = join(tmp.path, prefix, "lib/node_modules", NPM_PACKAGE);
    mkdirSync(join(pkg, "bin"), { recursive: true });
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: NPM_PACKAGE, version }));
    writeFileSync(join(pkg, "bin/od.js"), "#!/usr/bin/env node\n");
    mkdirSync(join(tmp.path, prefix, "bin"));
    symlinkSync(`../lib/node_modules/${NPM_PACKAGE}/bin/od.js`, join(tmp.path, prefix, "bin/od"));
    return pkg;
  };
  const onPath = install("a", "99.0.0");
  const offPath = install("b", "98.0.0");
  const older = install("c", "0.0.1");
  const env = {
    PATH: `${join(tmp.path, "a/bin")}:${join(tmp.path, "c/bin")}:/usr/bin:/bin`,
    HOME: tmp.path,
    NPM_CONFIG_PREFIX: join(tmp.path, "b"),
    NO_COLOR: "1",
  };
  const text = Bun.spawnSync([DIST_OD, "doctor", "--no-refresh"], { env, stdout: "pipe" }).stdout.toString();
  expect(text).toContain(`✓ od ${VERSION} (from source: ${ROOT})\n`);
  expect(text).toContain(
    `! a newer od is installed beside this one: 99.0.0 (npm: ${NPM_PACKAGE}, ${onPath}), on PATH as ${join(tmp.path, "a/bin/od")}\n`,
  );
  expect(text).toContain(`! a newer od is installed beside this one: 98.0.0 (npm: ${NPM_PACKAGE}, ${offPath})\n`);
  expect(text).toContain("update this one: git pull && npm install");
  expect(text).not.toContain("0.0.1"); // an older one is no news
  const json = JSON.parse(Bun.spawnSync([DIST_OD, "doctor", "--no-refresh", "--json"], { env, stdout: "pipe" }).stdout.toString());
  expect(json.od.self).toEqual({ kind: "source", path: ROOT });
  expect(json.od.beside.map((o: { install: { path: string } }) => o.install.path)).toEqual([onPath, older, offPath]);
});
