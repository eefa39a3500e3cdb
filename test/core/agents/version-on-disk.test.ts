import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { detectAll } from "../../../src/core/agents/detect.ts";
import { resolveShimTarget, shimTarget } from "../../../src/core/agents/npm-shim.ts";
import { installDirVersion } from "../../../src/core/agents/version-on-disk.ts";
import { type AdapterInput, validateAdapter } from "../../../src/core/contract/adapter.ts";
import { tmpdir } from "../../helpers.ts";

function adapter(id: string, detect: AdapterInput["detect"] = {}) {
  return validateAdapter({
    id,
    name: id,
    install: `npm i -g ${id}`,
    bin: id,
    detect,
    capabilities: { streaming: true, resume: false, readOnly: false },
    prompt: { via: "stdin" },
    invoke: () => ({ argv: [] }),
    protocol: { kind: "lines", createState: () => ({}), parse: () => [] },
  });
}

function write(path: string, text: string, mode = 0o644) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  chmodSync(path, mode);
}

/**
 * npm's global layout: `<prefix>/lib/node_modules/<pkg>` with its package.json, and
 * `<prefix>/bin/<bin>` a symlink to the package's bin file, a script that records
 * every time it runs (so a test sees whether detection started it) and answers 7.7.7.
 */
function npmInstall(root: string, o: { bin: string; pkg: string; version: string; shebang?: string; engines?: string }) {
  const pkgDir = join(root, "lib", "node_modules", o.pkg);
  write(
    join(pkgDir, "package.json"),
    JSON.stringify({ name: o.pkg, version: o.version, ...(o.engines ? { engines: { node: o.engines } } : {}) }),
  );
  write(join(pkgDir, "dist", "package.json"), JSON.stringify({ type: "module" })); // nameless ones on the way are passed
  const entry = join(pkgDir, "dist", "cli.js");
  write(entry, `${o.shebang ?? "#!/bin/sh"}\necho "$*" >> "${root}/${o.bin}.ran"\necho 7.7.7\n`, 0o755);
  mkdirSync(join(root, "bin"), { recursive: true });
  symlinkSync(join("..", "lib", "node_modules", o.pkg, "dist", "cli.js"), join(root, "bin", o.bin));
  return {
    ran: () =>
      existsSync(join(root, `${o.bin}.ran`))
        ? readFileSync(join(root, `${o.bin}.ran`), "utf8")
            .trim()
            .split("\n")
        : [],
  };
}

const envOf = (root: string, extra: Record<string, string> = {}) => ({ PATH: `${join(root, "bin")}:/usr/bin:/bin`, HOME: root, ...extra });

/** Node 20 on PATH (a node that reports its version and otherwise runs the script it is given), and acme installed asking for 22. */
function acmeOnOldNode(root: string) {
  write(join(root, "bin", "node"), '#!/bin/sh\n[ "$1" = --version ] && { echo v20.20.2; exit 0; }\nexec /bin/sh "$@"\n', 0o755);
  return npmInstall(root, { bin: "acme", pkg: "@acme/cli", version: "3.4.5", shebang: "#!/usr/bin/env node", engines: ">=22.19.0" });
}
describe("version on disk", () => {
  test("an npm install: the version from the package's package.json, the CLI never started", async () => {
    await using tmp = tmpdir();
    const cli = npmInstall(tmp.path, { bin: "acme", pkg: "@acme/cli", version: "3.4.5-beta.1" });
    const [d] = await detectAll([adapter("acme", { npmPackage: "@acme/cli" })], envOf(tmp.path));
    expect(d).toMatchObject({ status: "ready", installed: true, version: "3.4.5-beta.1", versionFrom: "package", problems: [] });
    expect(cli.ran()).toEqual([]);
  });

  test("another package's package.json, or none declared: the CLI is asked", async () => {
    await using tmp = tmpdir();
    const cli = npmInstall(tmp.path, { bin: "acme", pkg: "acme-fork", version: "3.4.5" });
    const [wrong] = await detectAll([adapter("acme", { npmPackage: "@acme/cli" })], envOf(tmp.path));
    const [none] = await detectAll([adapter("acme")], envOf(tmp.path));
    expect(wrong).toMatchObject({ status: "ready", version: "7.7.7", versionFrom: "probe" });
    expect(none).toMatchObject({ status: "ready", version: "7.7.7", versionFrom: "probe" });
    expect(cli.ran()).toEqual(["--version", "--version"]);
  });

  test("the file cannot start as installed (its interpreter is not there): the CLI is asked, and is missing", async () => {
    await using tmp = tmpdir();
    const cli = npmInstall(tmp.path, { bin: "acme", pkg: "@acme/cli", version: "3.4.5", shebang: "#!/usr/bin/env no-such-node" });
    const [d] = await detectAll([adapter("acme", { npmPackage: "@acme/cli" })], envOf(tmp.path));
    expect(d).toMatchObject({ status: "missing", installed: false });
    expect(d!.problems[0]).toMatchObject({ code: "AGENT_NOT_FOUND" });
    expect(d!.problems[0]!.message).toContain("cannot be started");
    expect(cli.ran()).toEqual([]);
  });

  test("Node older than the package's engines: the CLI is asked (kimi 2.1 on Node 20 crashes)", async () => {
    await using tmp = tmpdir();
    const cli = acmeOnOldNode(tmp.path);
    const met = npmInstall(join(tmp.path, "other"), {
      bin: "beta",
      pkg: "beta",
      version: "1.0.0",
      shebang: "#!/usr/bin/env node",
      engines: ">=18",
    });
    const env = envOf(tmp.path, { PATH: `${join(tmp.path, "bin")}:${join(tmp.path, "other", "bin")}:/usr/bin:/bin` });
    const [acme, beta] = await detectAll([adapter("acme", { npmPackage: "@acme/cli" }), adapter("beta", { npmPackage: "beta" })], env);
    expect(acme).toMatchObject({ status: "ready", version: "7.7.7", versionFrom: "probe" });
    expect(cli.ran()).toEqual(["--version"]);
    expect(beta).toMatchObject({ status: "ready", version: "1.0.0", versionFrom: "package" });
    expect(met.ran()).toEqual([]);
  });

  test("Node older than the package's engines and the CLI fails under it: broken, and the hint names the Node it asks for", async () => {
    await using tmp = tmpdir();
    const cli = acmeOnOldNode(tmp.path);
    const entry = join(tmp.path, "lib", "node_modules", "@acme", "cli", "dist", "cli.js");
    write(entry, `#!/usr/bin/env node\necho "$*" >> "${tmp.path}/acme.ran"\necho "SyntaxError: no zstd in node:zlib" >&2\nexit 1\n`, 0o755);
    const [d] = await detectAll([adapter("acme", { npmPackage: "@acme/cli" })], envOf(tmp.path));
    expect(cli.ran()).toEqual(["--version"]);
    expect(d).toMatchObject({ status: "broken", installed: false });
    expect(d!.version).toBeUndefined(); // not ready at a version it cannot run
    expect(d!.problems).toHaveLength(1);
    expect(d!.problems[0]!.code).toBe("AGENT_CRASHED");
    expect(d!.problems[0]!.message).toContain("SyntaxError: no zstd in node:zlib");
    expect(d!.problems[0]!.hint).toBe(
      `@acme/cli 3.4.5 asks for Node >=22.19.0 (its engines) and runs on v20.20.2 here (${join(tmp.path, "bin", "node")}): install a newer Node, or point PATH at one.`,
    );
  });

  test("a newer self-update in detect.updateDirs: the package's version is not the one that runs, so the CLI is asked", async () => {
    await using tmp = tmpdir();
    const cli = npmInstall(tmp.path, { bin: "acme", pkg: "@acme/cli", version: "1.0.102" });
    const a = adapter("acme", { npmPackage: "@acme/cli", updateDirs: ["{ACME_CACHE:-.cache/acme}/pkg"] });
    mkdirSync(join(tmp.path, ".cache", "acme", "pkg", "linux-x64", "1.0.102"), { recursive: true }); // its own unpacked copy
    expect((await detectAll([a], envOf(tmp.path)))[0]).toMatchObject({ version: "1.0.102", versionFrom: "package" });
    mkdirSync(join(tmp.path, "moved", "pkg", "universal", "1.0.110"), { recursive: true });
    expect((await detectAll([a], envOf(tmp.path)))[0]).toMatchObject({ version: "1.0.102" }); // not where ACME_CACHE points
    expect((await detectAll([a], envOf(tmp.path, { ACME_CACHE: join(tmp.path, "moved") })))[0]).toMatchObject({
      version: "7.7.7",
      versionFrom: "probe",
    });
    expect(cli.ran()).toEqual(["--version"]);
  });

  test("a versioned install folder (claude's and cursor-agent's own installers)", async () => {
    await using tmp = tmpdir();
    const file = join(tmp.path, ".local", "share", "acme", "versions", "2.1.332");
    write(file, `#!/bin/sh\necho ran >> "${tmp.path}/ran"\necho 2.1.332\n`, 0o755);
    mkdirSync(join(tmp.path, "bin"));
    symlinkSync(file, join(tmp.path, "bin", "acme"));
    const [d] = await detectAll([adapter("acme")], envOf(tmp.path));
    expect(d).toMatchObject({ status: "ready", version: "2.1.332", versionFrom: "install-dir" });
    expect(existsSync(join(tmp.path, "ran"))).toBe(false);
    expect(installDirVersion("/h/.local/share/cursor-agent/versions/2025.09.18-7ae6800/cursor-agent", ["cursor-agent"])).toBe(
      "2025.09.18-7ae6800",
    );
    expect(installDirVersion("/h/.nvm/versions/node/v22.1.0/lib/node_modules/x/cli.js", ["node", "x"])).toBeUndefined();
  });

  test("a shim on PATH (pnpm, cmd-shim) leads to its package", async () => {
    await using tmp = tmpdir();
    const pkgDir = join(tmp.path, "global", "node_modules", "@acme", "cli");
    write(join(pkgDir, "package.json"), JSON.stringify({ name: "@acme/cli", version: "5.0.1" }));
    write(join(pkgDir, "cli.js"), "#!/usr/bin/env node\n", 0o755);
    write(
      join(tmp.path, "bin", "acme"),
      `#!/bin/sh\nbasedir=$(dirname "$0")\necho ran >> "${tmp.path}/ran"\nexec node  "$basedir/../global/node_modules/@acme/cli/cli.js" "$@"\n`,
      0o755,
    );
    write(join(tmp.path, "bin", "node"), "#!/bin/sh\necho v22.0.0\n", 0o755);
    const [d] = await detectAll([adapter("acme", { npmPackage: "@acme/cli" })], envOf(tmp.path));
    expect(d).toMatchObject({ status: "ready", version: "5.0.1", versionFrom: "package" });
    expect(existsSync(join(tmp.path, "ran"))).toBe(false);
  });
});

// What npm (cmd-shim 6/7, old and new), pnpm and a native-binary package write on Windows and POSIX.
const SHIMS: Array<[string, string, string | undefined]> = [
  [
    "npm .cmd (cmd-shim 6)",
    `@ECHO off\r\nGOTO start\r\n:find_dp0\r\nSET dp0=%~dp0\r\nEXIT /b\r\n:start\r\nSETLOCAL\r\nCALL :find_dp0\r\n\r\nIF EXIST "%dp0%\\node.exe" (\r\n  SET "_prog=%dp0%\\node.exe"\r\n) ELSE (\r\n  SET "_prog=node"\r\n  SET PATHEXT=%PATHEXT:;.JS;=;%\r\n)\r\n\r\nendLocal & goto #_undefined_# 2>NUL || title %COMSPEC% & "%_prog%"  "%dp0%\\node_modules\\@anthropic-ai\\claude-code\\cli.js" %*\r\n`,
    "node_modules/@anthropic-ai/claude-code/cli.js",
  ],
  [
    "npm .cmd, native binary",
    `@ECHO off\r\nGOTO start\r\n:find_dp0\r\nSET dp0=%~dp0\r\nEXIT /b\r\n:start\r\nSETLOCAL\r\nCALL :find_dp0\r\n"%dp0%\\node_modules\\opencode-ai\\bin\\opencode.exe"   %*\r\n`,
    "node_modules/opencode-ai/bin/opencode.exe",
  ],
  [
    "old .cmd (%~dp0)",
    `@IF EXIST "%~dp0\\node.exe" (\r\n  "%~dp0\\node.exe"  "%~dp0\\..\\lib\\node_modules\\@google\\gemini-cli\\bundle\\gemini.js" %*\r\n) ELSE (\r\n  @SETLOCAL\r\n  @SET PATHEXT=%PATHEXT:;.JS;=;%\r\n  node  "%~dp0\\..\\lib\\node_modules\\@google\\gemini-cli\\bundle\\gemini.js" %*\r\n)`,
    "../lib/node_modules/@google/gemini-cli/bundle/gemini.js",
  ],
  [
    "npm .ps1",
    `#!/usr/bin/env pwsh\n$basedir=Split-Path $MyInvocation.MyCommand.Definition -Parent\n\n$exe=""\nif ($PSVersionTable.PSVersion -lt "6.0" -or $IsWindows) {\n  $exe=".exe"\n}\n$ret=0\nif (Test-Path "$basedir/node$exe") {\n  if ($MyInvocation.ExpectingInput) {\n    $input | & "$basedir/node$exe"  "$basedir/node_modules/@openai/codex/bin/codex.js" $args\n  } else {\n    & "$basedir/node$exe"  "$basedir/node_modules/@openai/codex/bin/codex.js" $args\n  }\n  $ret=$LASTEXITCODE\n}\nexit $ret\n`,
    "node_modules/@openai/codex/bin/codex.js",
  ],
  [
    "npm sh shim",
    `#!/bin/sh\nbasedir=$(dirname "$(echo "$0" | sed -e 's,\\\\,/,g')")\n\ncase \`uname\` in\n    *CYGWIN*|*MINGW*|*MSYS*) basedir=\`cygpath -w "$basedir"\`;;\nesac\n\nif [ -x "$basedir/node" ]; then\n  exec "$basedir/node"  "$basedir/node_modules/@mariozechner/pi-coding-agent/dist/cli.js" "$@"\nelse \n  exec node  "$basedir/node_modules/@mariozechner/pi-coding-agent/dist/cli.js" "$@"\nfi\n`,
    "node_modules/@mariozechner/pi-coding-agent/dist/cli.js",
  ],
  ["a plain script", '#!/bin/sh\nexec /opt/acme/acme "$@"\n', undefined],
  ["only node itself", `"%dp0%\\node.exe" %*`, undefined],
];

describe("npm shims", () => {
  for (const [name, text, want] of SHIMS) test(name, () => expect(shimTarget(text)).toBe(want));

  test("joined the way the shim's own system would", () => {
    const cmd = SHIMS[0]![1];
    expect(resolveShimTarget("C:\\Users\\me\\AppData\\Roaming\\npm\\claude.cmd", cmd, "win32")).toBe(
      "C:\\Users\\me\\AppData\\Roaming\\npm\\node_modules\\@anthropic-ai\\claude-code\\cli.js",
    );
    expect(resolveShimTarget("/usr/local/bin/gemini", SHIMS[2]![1], "linux")).toBe(
      "/usr/local/lib/node_modules/@google/gemini-cli/bundle/gemini.js",
    );
  });
});
