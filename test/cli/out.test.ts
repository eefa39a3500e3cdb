// cli/out.ts: a command's output through Bun.write, without Node's streams.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ROOT } from "../helpers.ts";

const OUT = join(ROOT, "src/cli/out.ts");

/** A script that writes through out.ts, with stdout on `redirect` (a shell redirection) and stderr piped. */
function script(body: string, redirect = "") {
  const code = `import { stdout, stderr, streaming } from ${JSON.stringify(OUT)};\n${body}`;
  const p = Bun.spawnSync(["/bin/sh", "-c", `"$0" -e "$1" ${redirect}`, process.execPath, code], { stdin: "ignore" });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
}

describe("a command's stdout and stderr (cli/out.ts)", () => {
  test("text goes out as it is, in the order written: whole lines, a partial line, text with format characters", () => {
    const r = script(
      `await stdout.write("agent  status\\nclaude ready\\n"); await stdout.write("probing…\\r"); await stdout.write("100%% %s {}\\n"); await stderr.write("to stderr\\n");`,
    );
    expect(r).toEqual({ code: 0, out: "agent  status\nclaude ready\nprobing…\r100%% %s {}\n", err: "to stderr\n" });
  });

  test("stdout that cannot be written is an OdError (STORAGE) with a hint; stderr that cannot be is let go", () => {
    const r = script(
      `try { await stdout.write("x\\n"); } catch (e) { console.error(e.code, e.message, "|", e.hint); } await stderr.write("gone\\n");`,
      ">/dev/full",
    );
    expect(r.err).toMatch(/^STORAGE Could not write to stdout: .*no space left on device.* \| Check where od's output goes/i);
    const quiet = script(`await stderr.write("x\\n"); console.log("went on");`, "2>/dev/full");
    expect(quiet).toMatchObject({ code: 0, out: "went on\n" });
  });

  test("isTTY answers as the stream would (without building it: core/os/terminal.ts)", () => {
    expect(script(`console.log(String(stdout.isTTY === Boolean(process.stdout.isTTY)))`).out).toBe("true\n");
  });
});

describe("output that streams (streaming: od run's events)", () => {
  // 3 MB in 2 KB writes, each awaited, while a timer ticks every 10 ms; the reader starts after 500 ms.
  const slow = `const out = streaming("stdout"); let ticks = 0; const iv = setInterval(() => ticks++, 10);
    for (let i = 0; i < 1500; i++) await out.write(String(i % 10).repeat(2047) + "\\n");
    clearInterval(iv); console.error("ticks", ticks);`;

  test("a reader slow to empty the pipe holds the writes back, not the event loop; everything arrives, in order", () => {
    const r = script(slow, "| (sleep 0.5; cat)");
    expect(Number(r.err.match(/ticks (\d+)/)?.[1])).toBeGreaterThan(20);
    const lines = r.out.split("\n").slice(0, -1);
    expect(lines).toHaveLength(1500);
    expect(lines.every((l, i) => l === String(i % 10).repeat(2047))).toBe(true);
  });

  test("a reader gone ends the writing quietly; a full disk is an OdError (STORAGE)", () => {
    const gone = script(`${slow}; console.error("went on")`, "| head -c 10 >/dev/null");
    expect(gone.err).toContain("went on");
    expect(gone.err).not.toMatch(/EPIPE|error/i);
    const full = script(`try { await streaming("stdout").write("x\\n"); } catch (e) { console.error(e.code, e.message); }`, ">/dev/full");
    expect(full.err).toMatch(/^STORAGE Could not write to stdout: .*no space left on device/i);
  });
});
