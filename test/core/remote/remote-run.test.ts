/**
 * Runs on a target through the whole pipeline, with stand-ins for the engines' clients: a fake
 * `ssh` that records its argv and runs the command string as sshd would (the login shell's -c),
 * and fake `docker`/`kubectl` that record theirs and run the script they were given. The "remote"
 * side is this machine, so what the wrapper does to process groups can be watched here.
 */
import { describe, expect, test } from "bun:test";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry } from "../../../src/core/agents/registry.ts";
import { findMarked, runMark } from "../../../src/core/os/reap.ts";
import { collect, finished, installFake, ofType, tmpdir } from "../../helpers.ts";
import { gone, killAll } from "../../supervision/support.ts";
import { fakeAdapter } from "../../support/fake-adapter.ts";
import { runAgent } from "../../support/run.ts";

const registry = createRegistry([fakeAdapter]);

/**
 * A fake engine client in `bin`: records its argv (NUL-separated, each call ended by RS) and runs
 * its last argument with `sh -c`, its stdin relayed through a `cat` that stands for the connection
 * (its pid goes to `<bin>/<name>.conn`: killing it is a dropped connection).
 */
function fakeEngine(bin: string, name: string): string {
  const log = join(bin, `${name}.argv`);
  const exe = join(bin, name);
  const script = [
    "#!/bin/sh",
    `printf '%s\\0' "$@" >> '${log}'`,
    `printf '\\036' >> '${log}'`,
    "for last; do :; done",
    'fifo=$(mktemp -u) && mkfifo "$fifo"',
    // (A background job's stdin would be /dev/null: the relay reads a saved copy.)
    "exec 4<&0",
    `cat <&4 > "$fifo" & echo $! >> '${join(bin, `${name}.conn`)}'`,
    "exec 4<&-",
    'exec sh -c "$last" < "$fifo"',
  ];
  writeFileSync(exe, `${script.join("\n")}\n`);
  chmodSync(exe, 0o755);
  return log;
}

const calls = (log: string) =>
  readFileSync(log, "utf8")
    .split("\x1e")
    .filter(Boolean)
    .map((l) => l.split("\0").slice(0, -1));

describe("a run on a target", () => {
  test("ssh: the agent runs in the target's directory with the prompt on stdin, and its events come back", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-agent", [
      { read: "all" },
      { stdout: { t: "session", v: "s-1" } },
      { stdout: { t: "text", v: "REMOTE_OK" } },
    ]);
    const log = fakeEngine(join(tmp.path, "bin"), "ssh");
    const events = await collect(
      runAgent({ agent: "fake", prompt: "a 'hostile' $(prompt)\n", cwd: tmp.path, on: "ssh://me@box:2222" }, { registry, env: fake.env }),
    );
    expect(finished(events).status).toBe("succeeded");
    expect(ofType(events, "text.delta").map((e) => e.text)).toEqual(["REMOTE_OK"]);
    expect(ofType(events, "run.started")[0]).toMatchObject({ on: "ssh://me@box:2222", cwd: tmp.path, bin: "fake-agent" });
    // The run's own call (the others take the target's files before and after it, test/core/remote/changes.test.ts).
    const argv = calls(log).find((a) => a.at(-1)!.includes("OD_RUN_ID="));
    expect(argv!.slice(0, 13)).toEqual([
      "-T",
      "-o",
      "BatchMode=yes",
      "-o",
      "ControlMaster=auto",
      "-o",
      expect.stringMatching(/^ControlPath=/),
      "-o",
      "ControlPersist=60",
      "-p",
      "2222",
      "--",
      "me@box",
    ]);
    expect(fake.recorded()).toMatchObject({ cwd: tmp.path, stdin: ["a 'hostile' $(prompt)"] });
    // Nothing of this machine's environment travels in the command: only the run's mark.
    for (const local of ["PATH=", "HOME=", "OD_HOME=", "FAKE_SCRIPT="]) expect(argv!.at(-1)).not.toContain(local);
    expect(argv!.at(-1)).toContain("OD_RUN_ID=");
  });

  test("ssh: a cancel ends the remote process group", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-agent", [{ stdout: { t: "text", v: "working" } }, { hang: true }]);
    fakeEngine(join(tmp.path, "bin"), "ssh");
    const controller = new AbortController();
    let runId = "";
    const events = [];
    for await (const e of runAgent(
      { agent: "fake", prompt: "x", cwd: tmp.path, on: "ssh://box" },
      { registry, env: fake.env, signal: controller.signal },
    )) {
      events.push(e);
      runId = e.runId;
      if (e.type === "text.delta") controller.abort();
    }
    expect(finished(events).status).toBe("cancelled");
    const left = await gone(() => findMarked([runMark(runId)]), 5000);
    killAll(left);
    expect(left).toEqual([]);
  });

  test("ssh: a dropped connection ends the remote process group within 5 s", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-agent", [{ stdout: { t: "text", v: "working" } }, { hang: true }]);
    fakeEngine(join(tmp.path, "bin"), "ssh");
    let runId = "";
    const run = runAgent({ agent: "fake", prompt: "x", cwd: tmp.path, on: "ssh://box" }, { registry, env: fake.env });
    for await (const e of run) {
      runId = e.runId;
      if (e.type === "text.delta") {
        // The connection drops while od still runs: the relay standing for it dies.
        expect(findMarked([runMark(runId)]).length).toBeGreaterThan(0);
        // The last connection is the run's (the first took the target's files before it).
        const conn = readFileSync(join(tmp.path, "bin", "ssh.conn"), "utf8")
          .trim()
          .split("\n")
          .at(-1);
        process.kill(Number(conn), "SIGKILL");
        const left = await gone(() => findMarked([runMark(runId)]), 5000);
        killAll(left);
        expect(left).toEqual([]);
        break;
      }
    }
  });

  test("docker, podman and kubectl: exec -i with the script, the agent's events come back", async () => {
    for (const [on, engine, head] of [
      ["docker://dev", "docker", ["exec", "-i", "dev", "sh", "-c"]],
      ["podman://dev", "podman", ["exec", "-i", "dev", "sh", "-c"]],
      ["kubectl://team/agent-0/cli", "kubectl", ["exec", "-i", "-n", "team", "agent-0", "-c", "cli", "--", "sh", "-c"]],
    ] as const) {
      await using tmp = tmpdir();
      const fake = installFake(tmp.path, "fake-agent", [{ read: "all" }, { stdout: { t: "text", v: "IN_CONTAINER" } }]);
      const log = fakeEngine(join(tmp.path, "bin"), engine);
      const events = await collect(runAgent({ agent: "fake", prompt: "hi", cwd: tmp.path, on }, { registry, env: fake.env }));
      expect(ofType(events, "text.delta").map((e) => e.text)).toEqual(["IN_CONTAINER"]);
      expect(calls(log)[0]!.slice(0, head.length)).toEqual([...head]);
    }
  });

  test("what a target cannot take is refused before anything starts; an unreachable target says so", async () => {
    await using tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-agent", [{ read: "all" }]);
    const refused = await collect(
      runAgent({ agent: "fake", prompt: "x", cwd: "relative/dir", on: "ssh://box" }, { registry, env: fake.env }),
    );
    expect(ofType(refused, "error")[0]).toMatchObject({
      code: "INVALID_REQUEST",
      message: expect.stringContaining("absolute path on the target"),
    });
    writeFileSync(join(tmp.path, "bin", "ssh"), "#!/bin/sh\necho 'ssh: connect to host box port 22: Connection refused' >&2\nexit 255\n");
    chmodSync(join(tmp.path, "bin", "ssh"), 0o755);
    const down = await collect(runAgent({ agent: "fake", prompt: "x", cwd: "/srv", on: "ssh://box" }, { registry, env: fake.env }));
    expect(ofType(down, "error")[0]).toMatchObject({ code: "TARGET_UNREACHABLE", hint: expect.stringContaining("ssh box") });
  });
});
