/** Where the running od came from (`od --version`): npm (nested or hoisted), a clone's build, a loose binary, the sources. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describeInstall, installLabel, isCompiled, NPM_PACKAGE, readPackage } from "../../../src/core/os/install.ts";
import { ROOT, tmpdir } from "../../helpers.ts";

function pkg(dir: string, data: Record<string, unknown>) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify(data));
}

const platform = (dir: string) => pkg(dir, { name: "@od-cli/linux-x64", version: "0.1.0", odLauncher: NPM_PACKAGE });

describe("describeInstall", () => {
  test("a global npm install: the platform package nested in the launcher's node_modules", async () => {
    await using tmp = tmpdir();
    const launcher = join(tmp.path, "lib/node_modules/@od-cli/od");
    pkg(launcher, { name: NPM_PACKAGE, version: "0.1.0" });
    platform(join(launcher, "node_modules/@od-cli/linux-x64"));
    const install = describeInstall(join(launcher, "node_modules/@od-cli/linux-x64/od"), true);
    expect(install).toEqual({ kind: "npm", package: NPM_PACKAGE, path: launcher });
    expect(installLabel(install)).toBe(`npm: ${NPM_PACKAGE}, ${launcher}`);
  });

  test("a project install: the platform package hoisted beside the launcher", async () => {
    await using tmp = tmpdir();
    const modules = join(tmp.path, "project/node_modules");
    pkg(join(tmp.path, "project"), { name: "someone-elses", version: "1.0.0" });
    pkg(join(modules, "@od-cli/od"), { name: NPM_PACKAGE, version: "0.1.0" });
    platform(join(modules, "@od-cli/linux-x64"));
    expect(describeInstall(join(modules, "@od-cli/linux-x64/od"), true)).toEqual({
      kind: "npm",
      package: NPM_PACKAGE,
      path: join(modules, "@od-cli/od"),
    });
  });

  test("a platform package installed on its own names itself", async () => {
    await using tmp = tmpdir();
    const dir = join(tmp.path, "node_modules/@od-cli/linux-x64");
    platform(dir);
    expect(describeInstall(join(dir, "od"), true)).toEqual({ kind: "npm", package: "@od-cli/linux-x64", path: dir });
  });

  test("a clone's dist/od is from source; any other copy is a binary", async () => {
    await using tmp = tmpdir();
    pkg(tmp.path, { name: "od", version: "0.1.0", bin: { od: "dist/od" } });
    expect(describeInstall(join(tmp.path, "dist/od"), true)).toEqual({ kind: "source", path: tmp.path });
    pkg(join(tmp.path, "other"), { name: "od", version: "6.0.2" }); // the date library has the name, not the layout
    expect(describeInstall(join(tmp.path, "other/dist/od"), true)).toEqual({ kind: "binary", path: join(tmp.path, "other/dist/od") });
    expect(installLabel({ kind: "binary", path: "/opt/od" })).toBe("binary: /opt/od");
  });

  test("under bun, the sources' clone", async () => {
    expect(isCompiled("/work/od/src/main.ts")).toBe(false);
    expect(isCompiled("/$bunfs/root/od")).toBe(true);
    expect(isCompiled("B:\\~BUN\\root\\od.exe")).toBe(true);
    expect(describeInstall("/usr/bin/bun", false)).toEqual({ kind: "source", path: ROOT });
    expect(installLabel(describeInstall("/usr/bin/bun", false))).toBe(`from source: ${ROOT}`);
  });

  test("a package.json that is empty, not JSON, a folder or missing reads as none, not as an error", async () => {
    await using tmp = tmpdir();
    const at = (name: string) => join(tmp.path, name);
    mkdirSync(at("empty"));
    writeFileSync(join(at("empty"), "package.json"), "");
    mkdirSync(at("garbled"));
    writeFileSync(join(at("garbled"), "package.json"), "{ not json");
    mkdirSync(join(at("folder"), "package.json"), { recursive: true });
    for (const dir of ["empty", "garbled", "folder", "missing"]) expect(readPackage(at(dir))).toBeUndefined();
    pkg(at("ok"), { name: "x", odLauncher: NPM_PACKAGE });
    expect(readPackage(at("ok"))).toEqual({ name: "x", odLauncher: NPM_PACKAGE });
  });
});
