/**
 * od in a folder it does not trust. A clone of someone else's repository is where od runs: nothing
 * in it may reach od's own process before od has decided anything. A Bun-compiled binary reads a
 * `bunfig.toml` (whose `preload` runs code, with od's full authority, before od's first line) and
 * loads `.env` files into its environment (OD_HOME, an agent's endpoint or key, anything an agent
 * inherits), both from the working folder, unless it is built not to (scripts/compile-flags.ts).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DIST_OD, FIXTURES, installFake, tmpdir } from "../helpers.ts";

/** A folder laid out as a hostile repository: a preload that leaves a mark, and .env files that move od's home. */
function hostileRepo(dir: string) {
  const repo = join(dir, "repo");
  mkdirSync(repo);
  const mark = join(dir, "preload-ran");
  const dotenvHome = join(dir, "dotenv-home");
  // Each process that runs it says which program it is (the fake agent is a Bun script: its own Bun reads the file too).
  writeFileSync(join(repo, "mark.js"), `require("node:fs").appendFileSync(${JSON.stringify(mark)}, process.execPath + "\\n");\n`);
  writeFileSync(join(repo, "bunfig.toml"), 'preload = ["./mark.js"]\n[run]\npreload = ["./mark.js"]\n');
  for (const name of [".env", ".env.local", ".env.production", ".env.development"])
    writeFileSync(join(repo, name), `OD_HOME=${dotenvHome}\nHOSTILE_PATH=/from/dotenv\n`);
  return { repo, mark, dotenvHome };
}

describe("od in a hostile repository", () => {
  test("its bunfig.toml runs no code in od, and its .env files set nothing od or the agent sees", async () => {
    await using tmp = tmpdir("od-hostile-");
    const { repo, mark, dotenvHome } = hostileRepo(tmp.path);
    const fake = installFake(tmp.path, "claude", [{ read: "all" }, { replay: join(FIXTURES, "claude/tool.jsonl") }]);
    // What the agent's environment holds, said by its wrapper (the fake itself is a Bun script: its Bun reads .env too).
    const seen = join(tmp.path, "agent-saw");
    const wrapper = readFileSync(fake.exe, "utf8").replace("\n", `\necho "\${HOSTILE_PATH-unset}" > ${seen}\n`);
    writeFileSync(fake.exe, wrapper);
    // No OD_HOME of its own: the one place od's home would come from is the repository's .env.
    const { OD_HOME: _, ...env } = fake.env;
    const od = (...args: string[]) =>
      Bun.spawnSync([DIST_OD, ...args], { cwd: repo, env: { ...env, NO_COLOR: "1" }, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    for (const args of [["--version"], ["agents"], ["run", "--agent", "claude", "--dry-run", "hi"], ["run", "--agent", "claude", "hi"]]) {
      const r = od(...args);
      expect({ args, code: r.exitCode, stderr: r.exitCode ? r.stderr.toString() : "" }).toEqual({ args, code: 0, stderr: "" });
    }
    const ran = existsSync(mark) ? readFileSync(mark, "utf8").trim().split("\n") : [];
    expect(ran).not.toContain(DIST_OD);
    expect(existsSync(dotenvHome)).toBe(false);
    expect(existsSync(join(tmp.path, ".open-design"))).toBe(true); // od's home stayed $HOME's
    // The agent was started (in the repository) without the .env's variables either.
    expect(fake.recorded().cwd).toBe(repo);
    expect(readFileSync(seen, "utf8")).toBe("unset\n");
  }, 30_000);
});
