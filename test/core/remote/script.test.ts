import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { engineArgv } from "../../../src/core/remote/engines.ts";
import { remoteScript, shQuote } from "../../../src/core/remote/script.ts";
import { parseTarget } from "../../../src/core/remote/target.ts";
import { tmpdir } from "../../helpers.ts";
import { HOSTILE } from "../../support/hostile.ts";

/** What a POSIX shell receives for each value, through `sh -c <script>` (and, for ssh, the remote login shell's `-c` first). */
function echoed(values: string[], via: "sh" | "ssh"): string[] {
  const script = remoteScript({ argv: ["printf", "%s\\0", ...values], cwd: "", env: {} });
  const argv =
    via === "sh" ? ["sh", "-c", script] : ["sh", "-c", engineArgv(parseTarget("ssh://box"), script, { controlDir: "/x" }).at(-1)!];
  const out = Bun.spawnSync(argv, { stdin: "ignore", stderr: "pipe" });
  return out.stdout.toString().split("\0").slice(0, -1);
}

describe("remote quoting", () => {
  test("shQuote: one argument, whatever it holds", () => {
    for (const value of HOSTILE) {
      const out = Bun.spawnSync(["sh", "-c", `printf '%s' ${shQuote(value)}`]).stdout.toString();
      expect(out).toBe(value);
    }
    expect(() => shQuote("nul\0byte")).toThrow();
  });

  test("the wrapper hands every argument to the agent byte-identical", () => {
    expect(echoed(HOSTILE, "sh")).toEqual(HOSTILE);
  });

  test("through ssh's command string (parsed once more by the login shell) too", () => {
    expect(echoed(HOSTILE, "ssh")).toEqual(HOSTILE);
  });

  test("variables: only names a shell accepts, values quoted", () => {
    const script = remoteScript({ argv: ["sh", "-c", 'printf %s "$X"'], cwd: "", env: { X: "$(id) 'q'" } });
    expect(Bun.spawnSync(["sh", "-c", script]).stdout.toString()).toBe("$(id) 'q'");
    expect(() => remoteScript({ argv: ["true"], cwd: "", env: { "A;B": "x" } })).toThrow();
  });

  test("a working directory that does not exist fails the run (exit 127), not somewhere else", () => {
    const script = remoteScript({ argv: ["pwd"], cwd: "/nonexistent/od test", env: {} });
    expect(Bun.spawnSync(["sh", "-c", script], { stderr: "pipe" }).exitCode).toBe(127);
  });
});

describe("the remote wrapper's stdin", () => {
  test("a prompt-on-stdin agent gets exactly the prompt's bytes, then end of file; the rest of stdin is only a lifeline", async () => {
    const prompt = "ünï 'prompt'\nline two";
    const script = remoteScript({ argv: ["cat"], cwd: "", env: {}, promptBytes: Buffer.byteLength(prompt) });
    // As od does: the prompt, then stdin stays open (what follows is not the agent's) until the run is over.
    const proc = Bun.spawn(["sh", "-c", script], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    proc.stdin.write(`${prompt}AFTER`);
    proc.stdin.flush();
    expect(await proc.exited).toBe(0);
    proc.stdin.end();
    expect(await new Response(proc.stdout).text()).toBe(prompt);
    expect(await new Response(proc.stderr).text()).toMatch(/^od-remote-pgid \d+\n$/);
  });

  test("when stdin ends (od gone, the connection dropped), the agent's whole group ends", async () => {
    await using tmp = tmpdir();
    const pidFile = join(tmp.path, "child.pid");
    // The agent starts a grandchild, then hangs; nobody but the lifeline can end them.
    const agent = ["sh", "-c", `sleep 300 & echo $! > '${pidFile}'; sleep 300`];
    const proc = Bun.spawn(["sh", "-c", remoteScript({ argv: agent, cwd: "", env: {}, promptBytes: 2 })], {
      stdin: "pipe",
      stderr: "pipe",
    });
    proc.stdin.write("hi");
    proc.stdin.flush();
    while (!existsSync(pidFile) || !readFileSync(pidFile, "utf8").trim()) await Bun.sleep(20);
    const grandchild = Number(readFileSync(pidFile, "utf8"));
    proc.stdin.end();
    await proc.exited;
    const alive = () => {
      try {
        process.kill(grandchild, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 100 && alive(); i++) await Bun.sleep(50);
    expect(alive()).toBe(false);
  });
});
