import { describe, expect, test } from "bun:test";
import { engineArgv } from "../../../src/core/remote/engines.ts";
import { formatTarget, parseTarget } from "../../../src/core/remote/target.ts";

describe("targets", () => {
  const valid: Array<[string, unknown]> = [
    ["ssh://box", { kind: "ssh", host: "box" }],
    ["ssh://me@build-1.example.com:2222", { kind: "ssh", host: "build-1.example.com", user: "me", port: 2222 }],
    ["docker://dev_box", { kind: "docker", container: "dev_box" }],
    ["podman://dev.box", { kind: "podman", container: "dev.box" }],
    ["kubectl://agent-0", { kind: "kubectl", pod: "agent-0" }],
    ["kubectl://team/agent-0", { kind: "kubectl", namespace: "team", pod: "agent-0" }],
    ["kubectl://team/agent-0/cli", { kind: "kubectl", namespace: "team", pod: "agent-0", container: "cli" }],
  ];
  for (const [spec, want] of valid)
    test(`${spec} parses, and prints back as written`, () => {
      const target = parseTarget(spec);
      expect(target).toEqual(want as never);
      expect(formatTarget(target)).toBe(spec);
    });

  // A name that starts with "-" would reach the engine as an option (ssh -oProxyCommand=… runs a local command).
  const invalid = [
    "box",
    "ssh://-oProxyCommand=touch%20x",
    "ssh://me@-oProxyCommand=x",
    "ssh://box:0",
    "ssh://box:99999",
    "ssh://a b",
    "docker://-it",
    "docker://",
    "kubectl://a/b/c/d",
    "kubectl://ns/-pod",
    "ftp://box",
  ];
  for (const spec of invalid)
    test(`${JSON.stringify(spec)} is refused with a hint`, () => {
      expect(() => parseTarget(spec)).toThrow(
        expect.objectContaining({ code: "INVALID_REQUEST", hint: expect.stringContaining("ssh://") }),
      );
    });
});

describe("engine argv", () => {
  const opts = { controlDir: "/tmp/od-ssh-1" };
  test("ssh: BatchMode, one multiplexed connection, options ended before the destination, the script for sh", () => {
    expect(engineArgv(parseTarget("ssh://me@box:2222"), "echo hi", opts)).toEqual([
      "ssh",
      "-T",
      "-o",
      "BatchMode=yes",
      "-o",
      "ControlMaster=auto",
      "-o",
      "ControlPath=/tmp/od-ssh-1/%C",
      "-o",
      "ControlPersist=60",
      "-p",
      "2222",
      "--",
      "me@box",
      "sh -c 'echo hi'",
    ]);
    expect(engineArgv(parseTarget("ssh://box"), "x", opts).join(" ")).not.toContain("StrictHostKeyChecking");
  });

  test("docker, podman and kubectl: exec -i, the script as one argument", () => {
    expect(engineArgv(parseTarget("docker://dev"), "echo 'hi'", opts)).toEqual(["docker", "exec", "-i", "dev", "sh", "-c", "echo 'hi'"]);
    expect(engineArgv(parseTarget("podman://dev"), "x", opts)).toEqual(["podman", "exec", "-i", "dev", "sh", "-c", "x"]);
    expect(engineArgv(parseTarget("kubectl://team/agent-0/cli"), "x", opts)).toEqual([
      "kubectl",
      "exec",
      "-i",
      "-n",
      "team",
      "agent-0",
      "-c",
      "cli",
      "--",
      "sh",
      "-c",
      "x",
    ]);
    expect(engineArgv(parseTarget("kubectl://agent-0"), "x", opts)).toEqual(["kubectl", "exec", "-i", "agent-0", "--", "sh", "-c", "x"]);
  });
});
