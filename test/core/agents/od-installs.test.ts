/** The od installs beside this one (`od doctor`): every od on PATH and npm's global one, read from disk, never run. */
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { npmGlobalModules, odInstallsBeside } from "../../../src/core/agents/od-installs.ts";
import { type Install, NPM_PACKAGE } from "../../../src/core/os/install.ts";
import { tmpdir } from "../../helpers.ts";

const ELF = Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]);

function file(path: string, content: string | Buffer, mode = 0o755) {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, content);
  chmodSync(path, mode);
}

/** An npm prefix with the launcher package at `version`, linked as `<prefix>/bin/od` the way npm links it. */
function npmPrefix(prefix: string, version: string): string {
  const pkg = join(prefix, "lib/node_modules", NPM_PACKAGE);
  file(join(pkg, "package.json"), JSON.stringify({ name: NPM_PACKAGE, version, bin: { od: "bin/od.js" } }), 0o644);
  file(join(pkg, "bin/od.js"), "#!/usr/bin/env node\n");
  mkdirSync(join(prefix, "bin"), { recursive: true });
  symlinkSync(`../lib/node_modules/${NPM_PACKAGE}/bin/od.js`, join(prefix, "bin/od"));
  return pkg;
}

describe("odInstallsBeside", () => {
  test("finds each od on PATH that leads to an install, with its version; skips itself, coreutils' od and loose copies", async () => {
    await using tmp = tmpdir();
    const t = (p: string) => join(tmp.path, p);
    const self: Install = { kind: "npm", package: NPM_PACKAGE, path: npmPrefix(t("a"), "0.1.0") };
    file(t("coreutils/od"), "#!/bin/sh\necho 'od (GNU coreutils) 9.1'\n");
    const newer = npmPrefix(t("b"), "0.2.0");
    file(t("clone/package.json"), JSON.stringify({ name: "od", version: "0.3.0", bin: { od: "dist/od" } }), 0o644);
    file(t("clone/dist/od"), ELF);
    file(t("loose/od"), ELF);
    // pnpm and cmd-shim write a shell script, not a link, that names the entry relative to itself
    npmPrefix(t("c-target"), "0.0.9");
    file(
      t("c/bin/od"),
      `#!/bin/sh\nbasedir=$(dirname "$0")\nexec node "$basedir/../../c-target/lib/node_modules/${NPM_PACKAGE}/bin/od.js" "$@"\n`,
    );
    const PATH = ["coreutils", "a/bin", "b/bin", "clone/dist", "loose", "c/bin", "missing"].map(t).join(":");
    const found = odInstallsBeside(self, { PATH, NPM_CONFIG_PREFIX: t("a") }, "linux");
    expect(found).toEqual([
      { install: { kind: "npm", package: NPM_PACKAGE, path: newer }, version: "0.2.0", onPath: t("b/bin/od") },
      { install: { kind: "source", path: t("clone") }, version: "0.3.0", onPath: t("clone/dist/od") },
      {
        install: { kind: "npm", package: NPM_PACKAGE, path: t(`c-target/lib/node_modules/${NPM_PACKAGE}`) },
        version: "0.0.9",
        onPath: t("c/bin/od"),
      },
    ]);
  });

  test("npm's global install counts even when its bin folder is not on PATH", async () => {
    await using tmp = tmpdir();
    const self: Install = { kind: "source", path: join(tmp.path, "clone") };
    const global = npmPrefix(join(tmp.path, "global"), "1.0.0");
    expect(odInstallsBeside(self, { PATH: "", NPM_CONFIG_PREFIX: join(tmp.path, "global") }, "linux")).toEqual([
      { install: { kind: "npm", package: NPM_PACKAGE, path: global }, version: "1.0.0", onPath: undefined },
    ]);
    // Without a configured prefix, npm's default: the prefix of the node on PATH.
    file(join(tmp.path, "global/bin/node"), "#!/bin/sh\n");
    expect(odInstallsBeside(self, { PATH: join(tmp.path, "global/bin") }, "linux").map((o) => o.onPath)).toEqual([
      join(tmp.path, "global/bin/od"),
    ]);
  });

  test("npm's global node_modules by platform", () => {
    expect(npmGlobalModules({ npm_config_prefix: "/opt/npm" }, "linux")).toBe("/opt/npm/lib/node_modules");
    expect(npmGlobalModules({ APPDATA: "C:\\Users\\me\\AppData\\Roaming" }, "win32")).toBe(
      "C:\\Users\\me\\AppData\\Roaming\\npm\\node_modules",
    );
    expect(npmGlobalModules({ PATH: "" }, "linux")).toBeUndefined();
  });
});
