import { describe, expect, spyOn, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { catalogOf } from "../../../src/core/agents/catalog.ts";
import { compareVersions, detectAll } from "../../../src/core/agents/detect.ts";
import { cachePath, detectCached } from "../../../src/core/agents/detect-cache.ts";
import { PROBE_SLOW } from "../../../src/core/agents/detection.ts";
import { type AdapterInput, validateAdapter } from "../../../src/core/contract/adapter.ts";
import { OdError } from "../../../src/core/contract/errors.ts";
import { stripTerminal } from "../../../src/core/os/probe.ts";
import { findExecutable, resolveExecutable, toolPath } from "../../../src/core/os/resolve.ts";
import { Slots } from "../../../src/core/os/slots.ts";
import { tmpdir } from "../../helpers.ts";

/** A fake CLI: a shell script that logs each call, then answers per subcommand. */
function fakeCli(dir: string, name: string, body: string) {
  const bin = join(dir, "bin");
  mkdirSync(bin, { recursive: true });
  const path = join(bin, name);
  writeFileSync(path, `#!/bin/sh\necho "$*" >> "${dir}/${name}.calls"\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}
const calls = (dir: string, name: string) => {
  try {
    return readFileSync(join(dir, `${name}.calls`), "utf8")
      .trim()
      .split("\n");
  } catch {
    return [];
  }
};

function adapter(id: string, extra: Partial<AdapterInput> = {}) {
  return validateAdapter({
    id,
    name: id,
    install: `npm i -g ${id}`,
    login: `${id} login`,
    bin: id,
    capabilities: { streaming: true, resume: false, readOnly: false },
    prompt: { via: "stdin" },
    invoke: () => ({ argv: [] }),
    protocol: { kind: "lines", createState: () => ({}), parse: () => [] },
    ...extra,
  });
}

const envFor = (dir: string, extra: Record<string, string> = {}) => ({
  PATH: `${join(dir, "bin")}:/usr/bin:/bin`,
  HOME: dir,
  OD_HOME: join(dir, ".od"),
  ...extra,
});

describe("detection", () => {
  test("found, missing, ghost shim and crashing CLIs, each reported honestly", async () => {
    await using tmp = tmpdir();
    fakeCli(tmp.path, "good", 'echo "good-cli v1.2.3"');
    fakeCli(tmp.path, "ghost", "exit 127");
    fakeCli(tmp.path, "crashy", "echo boom >&2; exit 2");
    const found = await detectAll([adapter("good"), adapter("absent"), adapter("ghost"), adapter("crashy")], envFor(tmp.path));
    const by = Object.fromEntries(found.map((d) => [d.id, d]));
    expect(by.good).toMatchObject({ status: "ready", installed: true, version: "1.2.3", confident: true });
    expect(by.absent).toMatchObject({ status: "missing", installed: false });
    expect(by.absent!.problems[0]).toMatchObject({ code: "AGENT_NOT_FOUND" });
    expect(by.absent!.problems[0]!.hint).toContain("npm i -g absent");
    expect(by.ghost).toMatchObject({ status: "missing", installed: false });
    expect(by.ghost!.problems[0]).toMatchObject({ code: "AGENT_NOT_FOUND" });
    expect(by.crashy).toMatchObject({ status: "broken", installed: false });
    expect(by.crashy!.problems[0]).toMatchObject({ code: "AGENT_CRASHED" });
    expect(by.crashy!.problems[0]!.message).toContain("exited with 2: boom");
  });

  test("a CLI too slow to answer --version is there: ready, its version unverified, never 'not found'", async () => {
    await using tmp = tmpdir();
    fakeCli(tmp.path, "hangs", "sleep 30");
    const [d] = await detectAll([adapter("hangs", { detect: { timeoutMs: 300 } })], envFor(tmp.path));
    expect(d).toMatchObject({ status: "ready", installed: true, path: join(tmp.path, "bin", "hangs") });
    expect(d!.version).toBeUndefined();
    expect(d!.problems).toHaveLength(1);
    expect(d!.problems[0]).toMatchObject({ code: PROBE_SLOW });
    expect(d!.problems[0]!.message).toContain("did not answer within 300 ms");
    expect(JSON.stringify(d)).not.toMatch(/AGENT_NOT_FOUND|[Rr]einstall/);
  });

  test("probes queue for a core: never more at once than the slots, and each one's clock starts when it runs", async () => {
    await using tmp = tmpdir();
    const ids = ["s1", "s2", "s3", "s4", "s5"];
    // Each takes 250 ms against a 400 ms limit: the later ones wait longer than that for a slot, and must not time out.
    const timeline = join(tmp.path, "timeline");
    for (const id of ids) fakeCli(tmp.path, id, `echo start >> "${timeline}"; sleep 0.25; echo end >> "${timeline}"; echo 1.0.0`);
    const found = await detectAll(
      ids.map((id) => adapter(id, { detect: { timeoutMs: 400 } })),
      envFor(tmp.path),
      { slots: new Slots(2) },
    );
    expect(found.map((d) => [d.status, d.version])).toEqual(ids.map(() => ["ready", "1.0.0"]));
    let running = 0;
    let most = 0;
    for (const event of readFileSync(timeline, "utf8").trim().split("\n")) {
      running += event === "start" ? 1 : -1;
      most = Math.max(most, running);
    }
    expect(most).toBe(2);
  });

  test("one command shared by two adapters (gemini and gemini-acp) runs once", async () => {
    await using tmp = tmpdir();
    fakeCli(tmp.path, "twin", 'case "$1" in --help) echo "  --acp";; *) echo 1.2.0;; esac');
    const found = await detectAll(
      [adapter("twin"), adapter("twin-acp", { bin: "twin", detect: { help: { args: ["--help"], flags: ["--acp"] } } })],
      envFor(tmp.path),
    );
    expect(found.map((d) => d.version)).toEqual(["1.2.0", "1.2.0"]);
    expect(found[1]!.flags).toEqual(["--acp"]);
    expect(calls(tmp.path, "twin").sort()).toEqual(["--help", "--version"]);
  });

  test("auth: env keys skip the probe; the probe's classifier decides; the login hint comes along", async () => {
    await using tmp = tmpdir();
    fakeCli(
      tmp.path,
      "authy",
      'case "$1" in status) if [ -f "$HOME/logged-in" ]; then echo "logged in"; else echo "not logged in"; exit 1; fi;; *) echo 2.0.0;; esac',
    );
    const authy = adapter("authy", {
      detect: {
        configDir: ".authy",
        auth: {
          envKeys: ["AUTHY_KEY"],
          args: ["status"],
          classify: (out) => (out.startsWith("logged in") ? "ok" : out.includes("not logged") ? "missing" : "unknown"),
        },
      },
    });
    const [out] = await detectAll([authy], envFor(tmp.path));
    expect(out).toMatchObject({ status: "logged-out", auth: "missing", installed: true, confident: false });
    expect(out!.problems[0]).toMatchObject({ code: "AGENT_AUTH_REQUIRED", hint: "Log in: authy login" });
    writeFileSync(join(tmp.path, "logged-in"), "");
    mkdirSync(join(tmp.path, ".authy"));
    expect((await detectAll([authy], envFor(tmp.path)))[0]).toMatchObject({ status: "ready", auth: "ok", confident: true });
    const before = calls(tmp.path, "authy").length;
    expect((await detectAll([authy], envFor(tmp.path, { AUTHY_KEY: "k" })))[0]!.auth).toBe("ok");
    expect(calls(tmp.path, "authy").slice(before)).toEqual(["--version"]); // no status probe
  });

  test("auth: a credentials file the CLI writes is a login without starting it; its absence leaves it to the probe", async () => {
    await using tmp = tmpdir();
    fakeCli(tmp.path, "authy", 'case "$1" in status) echo "not logged in"; exit 1;; *) echo 2.0.0;; esac');
    const authy = adapter("authy", {
      detect: {
        auth: {
          files: [{ path: "{AUTHY_HOME:-.authy}/auth.json", key: "tokens" }],
          args: ["status"],
          classify: (out) => (out.includes("not logged") ? "missing" : "ok"),
        },
      },
    });
    const env = envFor(tmp.path);
    expect((await detectAll([authy], env))[0]).toMatchObject({ status: "logged-out", auth: "missing" });
    mkdirSync(join(tmp.path, ".authy"));
    writeFileSync(join(tmp.path, ".authy", "auth.json"), JSON.stringify({ tokens: null, other: 1 }));
    expect((await detectAll([authy], env))[0]).toMatchObject({ auth: "missing" }); // the key it names is not set
    writeFileSync(join(tmp.path, ".authy", "auth.json"), JSON.stringify({ tokens: { access: "x" } }));
    const before = calls(tmp.path, "authy").length;
    expect((await detectAll([authy], env))[0]).toMatchObject({ status: "ready", auth: "ok" });
    expect(calls(tmp.path, "authy").slice(before)).toEqual(["--version"]);
    // Without a key, the file must hold something: pi writes `{}` before any login.
    const bare = adapter("authy", {
      detect: { auth: { files: [{ path: ".authy/keys.json" }], args: ["status"], classify: () => "missing" } },
    });
    writeFileSync(join(tmp.path, ".authy", "keys.json"), "{}");
    expect((await detectAll([bare], env))[0]).toMatchObject({ auth: "missing" });
    writeFileSync(join(tmp.path, ".authy", "keys.json"), JSON.stringify({ anthropic: { type: "api_key" } }));
    expect((await detectAll([bare], env))[0]).toMatchObject({ auth: "ok" });
    // Where the CLI's own variable moves its folder, that folder is the one read.
    expect((await detectAll([authy], envFor(tmp.path, { AUTHY_HOME: join(tmp.path, "elsewhere") })))[0]).toMatchObject({ auth: "missing" });
  });

  test("model catalog: escapes stripped, garbage dropped, aliases when there is no catalog", async () => {
    await using tmp = tmpdir();
    fakeCli(
      tmp.path,
      "cat",
      'case "$1" in models) printf "\\033[1mMODELS\\033[0m\\nalpha-1\\nbeta/2:latest\\n\\n  not a model id!\\n\\033[32mgamma\\033[0m\\nalpha-1\\n";; *) echo 1.0.0;; esac',
    );
    const cat = adapter("cat", {
      models: ["alias"],
      detect: {
        models: {
          args: ["models"],
          parse: (out) =>
            out
              .split("\n")
              .map((l) => l.trim())
              .filter((l) => l && l !== "MODELS"),
        },
      },
    });
    expect(await catalogOf(cat, envFor(tmp.path))).toMatchObject({ models: ["alpha-1", "beta/2:latest", "gamma"], modelSource: "catalog" });
    // Detection itself leaves the catalog alone (issue 19), and shows it once fetched.
    expect((await detectAll([cat], envFor(tmp.path)))[0]).toMatchObject({ models: ["alias"], modelSource: "aliases" });
    expect((await detectCached([cat], { env: envFor(tmp.path) })).detections[0]).toMatchObject({
      models: ["alpha-1", "beta/2:latest", "gamma"],
    });
    const [plain] = await detectAll([adapter("cat", { models: ["alias"] })], envFor(tmp.path));
    expect(plain).toMatchObject({ models: ["alias"], modelSource: "aliases" });
  });

  test("help capability scan reports only flags that are really there", async () => {
    await using tmp = tmpdir();
    fakeCli(tmp.path, "helpy", 'case "$1" in --help) echo "  --fast        go fast"; echo "  --json-out    json";; *) echo 3.1.0;; esac');
    const [d] = await detectAll(
      [adapter("helpy", { detect: { help: { args: ["--help"], flags: ["--fast", "--json", "--slow"] } } })],
      envFor(tmp.path),
    );
    expect(d!.flags).toEqual(["--fast"]);
  });

  test("a help scan too slow to answer leaves the flags unknown (not absent), and that detection is not cached", async () => {
    await using tmp = tmpdir();
    fakeCli(tmp.path, "helpy", 'case "$1" in --help) sleep 30;; *) echo 3.1.0;; esac');
    const helpy = adapter("helpy", { detect: { timeoutMs: 300, help: { args: ["--help"], flags: ["--fast"] } } });
    const env = envFor(tmp.path);
    const { detections } = await detectCached([helpy], { env });
    expect(detections[0]).toMatchObject({ status: "ready", version: "3.1.0" });
    expect(detections[0]!.flags).toBeUndefined();
    expect(detections[0]!.problems[0]).toMatchObject({ code: PROBE_SLOW });
    expect((await detectCached([helpy], { env })).cached).toEqual([]);
  });

  test("a minimum version marks older installs outdated", async () => {
    await using tmp = tmpdir();
    fakeCli(tmp.path, "old", "echo 1.9.9");
    const [d] = await detectAll([adapter("old", { detect: { minVersion: "1.10.0" } })], envFor(tmp.path));
    expect(d!.status).toBe("outdated");
    expect(compareVersions("1.10.0", "1.9.9")).toBe(1);
    expect(compareVersions("2.0.0-beta.1", "2.0.0")).toBe(0);
  });

  test("terminal output is flattened", () => {
    expect(stripTerminal("\x1b[31mred\x1b[0m\nspin|\rspin/\rdone")).toBe("red\ndone");
  });
});

describe("detection cache", () => {
  test("hit, binary change, expiry, corruption and --refresh", async () => {
    await using tmp = tmpdir();
    const path = fakeCli(tmp.path, "cached", "echo 1.0.0");
    const a = [adapter("cached")];
    const env = envFor(tmp.path);
    const t0 = Date.now();
    expect((await detectCached(a, { env, now: t0 })).cached).toEqual([]);
    expect(calls(tmp.path, "cached")).toHaveLength(1);
    // Hit: nothing is probed again.
    const hit = await detectCached(a, { env, now: t0 + 1000 });
    expect(hit.cached).toEqual(["cached"]);
    expect(hit.detections[0]!.version).toBe("1.0.0");
    expect(calls(tmp.path, "cached")).toHaveLength(1);
    // A hit that changes nothing leaves the file as it was: the same bytes are not written again.
    const written = statSync(cachePath(env));
    await detectCached(a, { env, now: t0 + 1500 });
    expect(statSync(cachePath(env)).ino).toBe(written.ino);
    // The binary changed (an upgrade): probed again.
    writeFileSync(path, `#!/bin/sh\necho "$*" >> "${tmp.path}/cached.calls"\necho 2.0.0\n`);
    utimesSync(path, new Date(), new Date(t0 + 5000));
    expect((await detectCached(a, { env, now: t0 + 2000 })).detections[0]!.version).toBe("2.0.0");
    expect(statSync(cachePath(env)).ino).not.toBe(written.ino); // written anew (a temporary file renamed over it)
    // Expired after 24 h.
    expect((await detectCached(a, { env, now: t0 + 2000 + 25 * 3600_000 })).cached).toEqual([]);
    // Corrupt: ignored, then rewritten valid.
    writeFileSync(cachePath(env), "{not json");
    expect((await detectCached(a, { env })).cached).toEqual([]);
    expect(() => JSON.parse(readFileSync(cachePath(env), "utf8"))).not.toThrow();
    expect((await detectCached(a, { env, refresh: true })).cached).toEqual([]);
  });
});

describe("the detection cache's file", () => {
  test("a pass that changes nothing is not serialized to be compared, though some adapters are not installed", async () => {
    await using tmp = tmpdir();
    fakeCli(tmp.path, "kept", "echo 1.0.0");
    const env = envFor(tmp.path);
    const listed = [adapter("kept"), adapter("absent")]; // "absent" has no executable: detected each time, never kept
    await detectCached(listed, { env });
    const written = statSync(cachePath(env));
    const stringify = spyOn(JSON, "stringify");
    try {
      const again = await detectCached(listed, { env });
      expect(again.cached).toEqual(["kept"]);
      expect(again.detections.map((d) => [d.id, d.status])).toEqual([
        ["kept", "ready"],
        ["absent", "missing"],
      ]);
      expect(stringify).not.toHaveBeenCalled();
    } finally {
      stringify.mockRestore();
    }
    expect(statSync(cachePath(env)).ino).toBe(written.ino);
  });

  test("an entry for an adapter no longer listed (a plugin removed) is dropped though every listed one was a hit", async () => {
    await using tmp = tmpdir();
    fakeCli(tmp.path, "kept", "echo 1.0.0");
    fakeCli(tmp.path, "gone", "echo 1.0.0");
    const env = envFor(tmp.path);
    await detectCached([adapter("kept"), adapter("gone")], { env });
    expect(Object.keys(JSON.parse(readFileSync(cachePath(env), "utf8")).entries).sort()).toEqual(["gone", "kept"]);
    expect((await detectCached([adapter("kept")], { env })).cached).toEqual(["kept"]);
    expect(Object.keys(JSON.parse(readFileSync(cachePath(env), "utf8")).entries)).toEqual(["kept"]);
  });
});

describe("the cache and Node", () => {
  test("another Node on PATH detects again: a package read as ready under Node 22 is asked under Node 20, where it fails", async () => {
    await using tmp = tmpdir();
    for (const v of ["22.19.0", "20.20.2"]) {
      const node = join(tmp.path, `node${v.split(".")[0]}`, "node");
      mkdirSync(dirname(node), { recursive: true });
      writeFileSync(
        node,
        `#!/bin/sh\n[ "$1" = --version ] && { echo v${v}; exit 0; }\n[ "${v}" = 22.19.0 ] || { echo "no zstd in node:zlib" >&2; exit 1; }\nexec /bin/sh "$@"\n`,
      );
      chmodSync(node, 0o755);
    }
    const pkg = join(tmp.path, "lib", "node_modules", "zed");
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, "package.json"), JSON.stringify({ name: "zed", version: "2.1.0", engines: { node: ">=22.19.0" } }));
    writeFileSync(join(pkg, "cli.js"), "#!/usr/bin/env node\necho 2.1.0\n");
    chmodSync(join(pkg, "cli.js"), 0o755);
    mkdirSync(join(tmp.path, "bin"));
    symlinkSync(join(pkg, "cli.js"), join(tmp.path, "bin", "zed"));
    const a = [adapter("zed", { detect: { npmPackage: "zed" } })];
    const on = (node: string) => envFor(tmp.path, { PATH: `${join(tmp.path, "bin")}:${join(tmp.path, node)}:/usr/bin:/bin` });
    expect((await detectCached(a, { env: on("node22") })).detections[0]).toMatchObject({ status: "ready", versionFrom: "package" });
    expect((await detectCached(a, { env: on("node22") })).cached).toEqual(["zed"]);
    const under20 = await detectCached(a, { env: on("node20") });
    expect(under20.cached).toEqual([]);
    expect(under20.detections[0]).toMatchObject({ status: "broken", problems: [{ code: "AGENT_CRASHED" }] });
  });
});

describe("what detection loads", () => {
  test("the cache's digest of a loop's settings needs no node:crypto (its import is ~15 ms of CPU at every `od agents`, `od run`)", () => {
    const source = readFileSync(join(import.meta.dir, "../../../src/core/agents/detect-cache.ts"), "utf8");
    const imports = new Bun.Transpiler({ loader: "ts" }).scanImports(source).map((i) => i.path);
    expect(imports).not.toContain("node:crypto");
  });
});

describe("executable resolution", () => {
  test("detection takes the executable as its caller resolved it (the cache looks each one up once, for its key and the detection)", async () => {
    await using tmp = tmpdir();
    const path = fakeCli(join(tmp.path, "elsewhere"), "found", "echo 3.2.1");
    const asked: string[] = [];
    const resolve = (a: { id: string }) => (asked.push(a.id), { path, via: "path" as const });
    const [d] = await detectAll([adapter("found")], { PATH: "/usr/bin:/bin", HOME: tmp.path }, { resolve });
    expect(d).toMatchObject({ status: "ready", version: "3.2.1", path, via: "path" });
    expect(asked).toEqual(["found"]);
  });
  test("an agent in a usual tool folder that PATH lacks is still found, and says how", async () => {
    await using tmp = tmpdir();
    const local = join(tmp.path, ".local", "bin");
    mkdirSync(local, { recursive: true });
    writeFileSync(join(local, "hidden"), "#!/bin/sh\necho 4.5.6\n");
    chmodSync(join(local, "hidden"), 0o755);
    const [d] = await detectAll([adapter("hidden")], { PATH: "/usr/bin:/bin", HOME: tmp.path });
    expect(d).toMatchObject({ status: "ready", version: "4.5.6", via: "tool-dir", path: join(local, "hidden") });
  });
});

describe("finding an executable without throwing (the detection cache's key)", () => {
  test("the same answer as resolveExecutable where it finds one, undefined where it throws", async () => {
    await using tmp = tmpdir();
    const path = fakeCli(tmp.path, "there", "echo 1.0.0");
    const env = envFor(tmp.path);
    const there = adapter("there");
    expect(findExecutable(there, env)).toEqual(resolveExecutable(there, env));
    expect(findExecutable(there, { ...env, THERE_BIN: path })).toEqual({ path, via: "override" });
    for (const [a, e] of [
      [adapter("nowhere"), env],
      [there, { ...env, THERE_BIN: "relative/there" }],
      [there, { ...env, THERE_BIN: join(tmp.path, "missing") }],
    ] as const) {
      expect(findExecutable(a, e)).toBeUndefined();
      expect(() => resolveExecutable(a, e)).toThrow(OdError);
    }
  });
  test("the tool folders are the ones that exist, in their order; a lookup given them finds what one without finds", async () => {
    await using tmp = tmpdir();
    const [local, bun, cargo] = [".local", ".bun", ".cargo"].map((d) => join(tmp.path, d, "bin")) as [string, string, string];
    for (const dir of [local, cargo, dirname(bun)]) mkdirSync(dir, { recursive: true });
    writeFileSync(bun, "a file, not a folder");
    const env = { PATH: "/usr/bin:/bin", HOME: tmp.path };
    const tools = toolPath(env).split(delimiter);
    expect(tools.slice(0, 2)).toEqual([local, cargo]);
    expect(tools.filter((d) => d.startsWith(tmp.path))).toEqual([local, cargo]);
    writeFileSync(join(cargo, "kept"), "#!/bin/sh\necho 1.0.0\n");
    chmodSync(join(cargo, "kept"), 0o755);
    const found = { path: join(cargo, "kept"), via: "tool-dir" as const };
    expect(findExecutable(adapter("kept"), env, toolPath(env))).toEqual(found);
    expect(findExecutable(adapter("kept"), env)).toEqual(found);
    expect(() => resolveExecutable(adapter("kept"), env, "")).toThrow(/not installed/); // no tool folders: PATH only
  });
});

describe("the run pipeline uses detection", () => {
  test("a cached logged-out agent is re-checked and refused before spawning; help flags reach invoke", async () => {
    await using tmp = tmpdir();
    // status says logged out until $HOME/in exists; --help lists --fast.
    fakeCli(
      tmp.path,
      "gate",
      'case "$1" in status) [ -f "$HOME/in" ] && echo in || { echo out; exit 1; };; --help) echo "  --fast";; --version) echo 1.0.0;; *) cat > /dev/null; echo "{\\"argv\\": \\"$*\\"}";; esac',
    );
    const gate = adapter("gate", {
      detect: {
        auth: { args: ["status"], classify: (out) => (out.startsWith("in") ? "ok" : "missing") },
        help: { args: ["--help"], flags: ["--fast"] },
      },
      invoke: (ctx) => ({ argv: ctx.flags?.has("--fast") ? ["--fast"] : [], stdin: ctx.prompt }),
      protocol: {
        kind: "lines",
        createState: () => ({}),
        parse: (r: unknown) => [{ type: "text.delta", id: "0", text: JSON.stringify(r) }],
      },
    });
    const env = envFor(tmp.path);
    await detectCached([gate], { env });
    const { runAgent } = await import("../../support/run.ts");
    const { createRegistry } = await import("../../../src/core/agents/registry.ts");
    const registry = createRegistry([{ adapter: gate, source: "test" }]);
    const refused = [];
    for await (const e of runAgent({ agent: "gate", prompt: "x", cwd: tmp.path }, { registry, env })) refused.push(e);
    expect(refused.find((e) => e.type === "error")).toMatchObject({ code: "AGENT_AUTH_REQUIRED", hint: "Log in: gate login" });
    expect(calls(tmp.path, "gate").filter((c) => c === "")).toEqual([]); // never started for the prompt
    writeFileSync(join(tmp.path, "in"), ""); // logged in since: the confirming probe lets the run through
    const ran = [];
    for await (const e of runAgent({ agent: "gate", prompt: "x", cwd: tmp.path }, { registry, env })) ran.push(e);
    expect(ran.find((e) => e.type === "text.delta")).toMatchObject({ text: '{"argv":"--fast"}' });
  });
});
