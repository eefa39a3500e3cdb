/**
 * What a plain `od run` leaves unloaded (issue 34): zod (its module and the request's schema were
 * 7 of a dry run's 17 ms of profile; contract/request-plain.ts checks the usual request instead) and
 * Node's stream for stderr (asking it whether it is a terminal cost ~13 ms of CPU: cli/out.ts asks
 * the C library). Timing is the benchmark's; this holds the behaviour that makes it. The CLI runs
 * from source with a preload that notes both, and writes what it saw to a file.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURES, installFake, ROOT, tmpdir } from "../helpers.ts";

const WATCH = `import { readFileSync } from "node:fs";
const seen = { zod: false, stderr: false };
Bun.plugin({ name: "watch", setup(b) {
  b.onLoad({ filter: /[\\\\/]node_modules[\\\\/]zod[\\\\/]/ }, (a) => ((seen.zod = true), { contents: readFileSync(a.path, "utf8"), loader: "js" }));
} });
const d = Object.getOwnPropertyDescriptor(process, "stderr");
Object.defineProperty(process, "stderr", { configurable: true, get() { seen.stderr = true; return d.get ? d.get.call(process) : d.value; } });
process.on("exit", () => require("node:fs").writeFileSync(process.env.WATCHED, JSON.stringify(seen)));
`;

async function seen(dir: string, env: Record<string, string>, args: string[]) {
  const preload = join(dir, "watch.ts");
  const watched = join(dir, "watched.json");
  writeFileSync(preload, WATCH);
  const p = Bun.spawn([process.execPath, "--preload", preload, join(ROOT, "src/main.ts"), ...args], {
    env: { ...env, NO_COLOR: "", WATCHED: watched },
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const [code, out, err] = await Promise.all([p.exited, new Response(p.stdout).text(), new Response(p.stderr).text()]);
  return { code, out, err, saw: JSON.parse(readFileSync(watched, "utf8")) as { zod: boolean; stderr: boolean } };
}

describe("a plain od run's start", () => {
  test("a dry run loads neither zod nor Node's stderr stream", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "claude", []);
    const r = await seen(tmp.path, fake.env, ["run", "--dry-run", "--agent", "claude", "--cwd", tmp.path, "--model", "opus", "hi"]);
    expect(r.code).toBe(0);
    expect(r.saw).toEqual({ zod: false, stderr: false });
  });

  test("a run to its end loads neither", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "claude", [{ read: "all" }, { replay: join(FIXTURES, "claude/plain.jsonl") }]);
    const r = await seen(tmp.path, fake.env, ["run", "--agent", "claude", "--cwd", tmp.path, "hi"]);
    expect(r.code).toBe(0);
    expect(r.out.length).toBeGreaterThan(0);
    expect(r.saw).toEqual({ zod: false, stderr: false });
  });

  test("a request the plain check refuses is the schema's: zod loads and says why", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "claude", []);
    const r = await seen(tmp.path, fake.env, ["run", "--dry-run", "--agent", "claude", "--cwd", tmp.path, "--model=-x", "hi"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("must not start with '-'");
    expect(r.saw.zod).toBe(true);
  });
});
