import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "../../helpers.ts";

const probe = `import { isTerminal } from ${JSON.stringify(join(ROOT, "src/core/os/terminal.ts"))};
console.log(JSON.stringify([0, 1, 2].map(isTerminal)));`;

/** isTerminal of stdin, stdout and stderr, in a Bun process whose descriptors are given. */
function answer(stdio: { stdin: "pipe" | "ignore"; stderr: "pipe" | "ignore" }): boolean[] {
  const p = Bun.spawnSync([process.execPath, "-e", probe], { stdin: stdio.stdin, stdout: "pipe", stderr: stdio.stderr });
  return JSON.parse(p.stdout.toString());
}

describe("isTerminal", () => {
  test("a pipe is not a terminal", () => {
    expect(answer({ stdin: "pipe", stderr: "pipe" })).toEqual([false, false, false]);
  });

  test("/dev/null is not one either, though it is a character device", () => {
    expect(answer({ stdin: "ignore", stderr: "ignore" })).toEqual([false, false, false]);
  });

  // util-linux's script(1) runs the probe on a pseudo-terminal: the one case that says yes.
  test.skipIf(!existsSync("/usr/bin/script"))("a pseudo-terminal is one", () => {
    const cmd = `${process.execPath} -e '${probe.replaceAll("'", "'\\''")}' 2>/dev/null </dev/null`;
    const p = Bun.spawnSync(["/usr/bin/script", "-qec", cmd, "/dev/null"], { stdout: "pipe", stderr: "pipe" });
    // stdout is the terminal; stdin and stderr were sent elsewhere.
    expect(p.stdout.toString().trim().split("\n").at(-1)?.trim()).toBe("[false,true,false]");
  });
});
