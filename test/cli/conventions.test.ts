/**
 * The conventions a new user expects of a CLI (issue 22), on the compiled binary: colour only on a
 * terminal, help however it is asked for, "did you mean" for a slip of the keyboard, and no noise
 * around an error that stopped od before anything ran.
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { DIST_OD, installFake, tmpdir } from "../helpers.ts";

const ESC = "\x1b[";
const BARE = { PATH: "/usr/bin:/bin", HOME: "/nonexistent" };

/** od with pipes for stdout and stderr, and exactly this environment (`env -i` when empty). */
function piped(args: string[], env: Record<string, string> = BARE, stdin?: string) {
  const p = Bun.spawnSync([DIST_OD, ...args], { env, stdin: stdin === undefined ? "ignore" : new Blob([stdin]) });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

/** od on a pseudo-terminal (stdin, stdout and stderr): what it showed, and how it exited. */
async function onTerminal(args: string[], env: Record<string, string> = BARE) {
  const chunks: string[] = [];
  const decoder = new TextDecoder();
  const p = Bun.spawn([DIST_OD, ...args], {
    env: { TERM: "xterm-256color", ...env },
    terminal: { cols: 120, rows: 40, data: (_t, data) => void chunks.push(decoder.decode(data, { stream: true })) },
  });
  const code = await p.exited;
  await Bun.sleep(50); // the last bytes of the pty
  p.terminal?.close();
  return { code, text: chunks.join("").replaceAll("\r\n", "\n") };
}

describe("colour only on a terminal", () => {
  test("--help piped or redirected has no colour codes, even under env -i", () => {
    for (const env of [{}, BARE, { ...BARE, TERM: "xterm-256color" }]) {
      const r = piped(["--help"], env);
      expect(r.code).toBe(0);
      expect(r.out).toContain("USAGE");
      expect(r.out).not.toContain(ESC);
      expect(piped(["run", "--help"], env).out).not.toContain(ESC);
    }
  });

  test("--help on a terminal is coloured, unless NO_COLOR; FORCE_COLOR colours a pipe", async () => {
    const tty = await onTerminal(["--help"]);
    expect(tty.code).toBe(0);
    expect(tty.text).toContain(`${ESC}36mrun`);
    const plain = await onTerminal(["--help"], { ...BARE, NO_COLOR: "1" });
    expect(plain.text).toContain("USAGE");
    expect(plain.text).not.toContain(ESC);
    expect(piped(["--help"], { ...BARE, FORCE_COLOR: "1" }).out).toContain(ESC);
  });
});

test("a log line sent to a file has no colour, even with stdout on a terminal", async () => {
  await using tmp = tmpdir();
  const file = join(tmp.path, "stderr.txt");
  // od on the terminal, its stderr redirected to a file (sh does the redirecting).
  const chunks: string[] = [];
  const p = Bun.spawn(["/bin/sh", "-c", `"${DIST_OD}" run --agent claude --dry-run hi 2>"${file}"`], {
    env: { ...BARE, TERM: "xterm-256color" },
    terminal: { data: (_t, data) => void chunks.push(new TextDecoder().decode(data)) },
  });
  expect(await p.exited).toBe(0);
  p.terminal?.close();
  const logged = await Bun.file(file).text();
  expect(logged).toContain("claude is not installed");
  expect(logged).not.toContain(ESC);
});

describe("help, however it is asked for", () => {
  test("od alone shows the help: exit 0 on a terminal; exit 2 and all on stderr for a script", async () => {
    const tty = await onTerminal([]);
    expect(tty.code).toBe(0);
    expect(tty.text).toContain("USAGE");
    expect(tty.text).not.toContain("No command specified");
    const script = piped([]);
    expect({ code: script.code, out: script.out }).toEqual({ code: 2, out: "" });
    expect(script.err).toContain("USAGE");
    expect(script.err).toContain("od run");
  });

  test("od help, od help <command>, od -v", () => {
    const help = piped(["help"]);
    expect({ code: help.code, out: help.out, err: help.err }).toEqual({ code: 0, out: piped(["--help"]).out, err: "" });
    const runHelp = piped(["help", "run"]);
    expect(runHelp.code).toBe(0);
    expect(runHelp.out).toBe(piped(["run", "--help"]).out);
    expect(runHelp.out).toContain("--agent");
    const version = piped(["-v"]);
    expect({ code: version.code, out: version.out }).toEqual({ code: 0, out: piped(["--version"]).out });
    // The version first (scripts read the first word), then where this od came from.
    expect(version.out.trim()).toMatch(/^\d+\.\d+\.\d+ \((npm|from source|binary): .+\)$/);
    const wrong = piped(["help", "rnu"]);
    expect({ code: wrong.code, out: wrong.out }).toEqual({ code: 2, out: "" });
    expect(wrong.err).toContain("Did you mean `od run`?");
  });
});

describe("output that cannot be written", () => {
  /** od with stdout on `out` (a file name for sh) and stderr piped. */
  function into(out: string, args: string[]) {
    const p = Bun.spawnSync(["/bin/sh", "-c", `"$0" "$@" >${out}`, DIST_OD, ...args], { env: BARE, stdin: "ignore" });
    return { code: p.exitCode, err: p.stderr.toString() };
  }

  test("a full disk under stdout is od's error (exit 74, said on stderr), never output lost with exit 0", () => {
    for (const args of [["agents", "--json"], ["agents"], ["--help"], ["run", "--agent", "claude", "--dry-run", "hi"]]) {
      const r = into("/dev/full", args);
      expect({ args, code: r.code }).toEqual({ args, code: 74 });
      expect(r.err).toContain("od: Could not write to stdout");
      expect(r.err).not.toContain("uncaught");
    }
  });

  test("a reader that went away (| true) ends the output quietly, exit 0", () => {
    for (const args of [["agents", "--json"], ["--help"]]) {
      const p = Bun.spawnSync(["/bin/bash", "-c", 'set -o pipefail; "$0" "$@" | true; echo "exit $?"', DIST_OD, ...args], { env: BARE });
      expect({ args, out: p.stdout.toString().trim() }).toEqual({ args, out: "exit 0" });
      expect(p.stderr.toString()).not.toMatch(/uncaught|EPIPE|Could not write/);
    }
  });
});

describe("did you mean", () => {
  test("a misspelt command, flag or agent is refused (exit 2) with the closest name", () => {
    const cases: Array<[string[], string]> = [
      [["rnu", "hi"], "Did you mean `od run`?"],
      [["agnets"], "Did you mean `od agents`?"],
      [["run", "--agnet", "claude", "hi"], "Did you mean --agent?"],
      [["run", "--agent", "claude", "--dryrun=x", "hi"], "Did you mean --dry-run?"],
      [["doctor", "--jsno"], "Did you mean --json?"],
      [["run", "--agent", "cluade", "hi"], 'Did you mean "claude"?'],
      [["run", "--agent", "cluade,codex", "hi"], 'Did you mean "claude"?'],
      [["init", "--agent", "cluade", "--role", "r", "--prompt-file", "/dev/null"], 'Did you mean "claude"?'],
    ];
    for (const [args, hint] of cases) {
      const r = piped(args);
      expect({ args, code: r.code, out: r.out }).toEqual({ args, code: 2, out: "" });
      expect(r.err).toContain(hint);
    }
    // Nothing alike: no guess.
    expect(piped(["bogus"]).err).not.toContain("Did you mean");
    expect(piped(["run", "--agent", "zzzzzz", "hi"]).err).not.toContain("Did you mean");
  });
});

describe("errors before anything ran", () => {
  test("an unknown or missing agent says so, without a closing 'failed in 0.0s'", () => {
    for (const args of [
      ["run", "--agent", "cluade", "hi"],
      ["run", "--agent", "claude", "hi"], // not installed here
    ]) {
      const r = piped(args);
      expect(r.err).toContain("[AGENT_");
      expect(r.err).not.toContain("failed in");
    }
  });

  test("a run that started and failed still ends with its summary line", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "claude", [{ read: "all" }, { exit: 1 }]);
    const r = piped(["run", "--agent", "claude", "--cwd", tmp.path, "hi"], fake.env);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/od: failed in \d+\.\ds/);
  });

  test("--timeout is given in seconds and reported in seconds", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "claude", [{ read: "all" }, { hang: true }]);
    const r = piped(["run", "--agent", "claude", "--timeout", "1", "--retries", "0", "--cwd", tmp.path, "hi"], fake.env);
    expect(r.code).toBe(124);
    expect(r.err).toContain("did not finish within 1 s");
    expect(r.err).not.toContain("1000 ms");
  });

  test("an empty prompt on stdin is called that, and not told to use - (it did)", () => {
    const r = piped(["run", "--agent", "claude", "-"], BARE, "  \n");
    expect({ code: r.code, out: r.out }).toEqual({ code: 2, out: "" });
    expect(r.err).toContain("The prompt read from stdin is empty");
    expect(r.err).not.toContain('"-" to read stdin');
  });
});

describe("od doctor", () => {
  test("the text names the install command of each agent that is not installed", async () => {
    await using tmp = tmpdir();
    const r = piped(["doctor", "--no-refresh"], { PATH: "/usr/bin:/bin", HOME: tmp.path, OD_HOME: join(tmp.path, ".od") });
    expect(r.out).toContain("not installed");
    expect(r.out).toMatch(/claude +npm install -g @anthropic-ai\/claude-code/);
    expect(r.out).not.toContain("`od agents` shows how to install each");
  });
});
