// A corpus of hostile tool calls: every one is refused with a tool error (never a crash), and
// nothing outside the working directory (nor inside it) changes. Run on the tools directly (with
// each way beneath.ts has on this machine) and through the whole loop against both APIs.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, linkSync, mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { backends, useBackend } from "../../../src/core/api/beneath.ts";
import { READ_CAP, runTool, WRITE_CAP } from "../../../src/core/api/tools.ts";
import type { Mode } from "../../../src/core/contract/events.ts";
import { finished, ofType, tmpdir } from "../../helpers.ts";
import { startModelStub } from "../../live/model-stub.ts";
import { PROVIDERS, real, runApi, snapshot, stubEnv } from "./harness.ts";

const stub = await startModelStub();
afterAll(() => stub.stop());

interface Sandbox {
  root: string;
  project: string;
  outside: string;
  hasDevice: boolean;
}

/** project/ (the cwd) full of traps, and its sibling outside/ that must never change. */
function build(base: string): Sandbox {
  const project = join(base, "project");
  const outside = join(base, "outside");
  mkdirSync(join(project, "sub"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(outside, "secret.txt"), "TOP SECRET");
  writeFileSync(join(project, "ok.txt"), "fine");
  writeFileSync(join(project, "sub/inner.txt"), "inner");
  symlinkSync("../outside", join(project, "link-out"));
  symlinkSync("../outside/secret.txt", join(project, "secret-link"));
  symlinkSync("/etc", join(project, "abs-link"));
  symlinkSync("/dev/zero", join(project, "dev-link"));
  symlinkSync("../outside/not-yet.txt", join(project, "dangling"));
  symlinkSync("../outside/not-yet-dir", join(project, "dangling-dir"));
  execFileSync("mkfifo", [join(project, "pipe")]);
  writeFileSync(join(project, "big.txt"), "");
  truncateSync(join(project, "big.txt"), READ_CAP + 1);
  writeFileSync(join(project, "huge.txt"), "TOP");
  truncateSync(join(project, "huge.txt"), WRITE_CAP + 1);
  let hasDevice = false;
  try {
    execFileSync("mknod", [join(project, "null"), "c", "1", "3"], { stdio: "ignore" });
    hasDevice = true;
  } catch {} // not root: the device case is covered by dev-link and /dev/zero
  return { root: real(project), project, outside, hasDevice };
}

type Call = { name: string; args: Record<string, unknown> };

function corpus(s: Sandbox): Call[] {
  const abs = join(s.outside, "secret.txt");
  const escapes = [
    "../outside/secret.txt",
    abs,
    "/etc/passwd",
    "link-out/secret.txt",
    "secret-link",
    "abs-link/passwd",
    "sub/../../outside/secret.txt",
    "./../outside/secret.txt",
    join(s.project, "..", "outside", "secret.txt"),
  ];
  const specials = [
    "dev-link",
    "/dev/zero",
    "pipe",
    "big.txt",
    "huge.txt",
    "sub",
    ".",
    "dangling",
    "",
    "a\u0000b",
    ...(s.hasDevice ? ["null"] : []),
  ];
  const writes = [
    "../outside/new.txt",
    join(s.outside, "new.txt"),
    `/tmp/od-hostile-${process.pid}.txt`,
    "link-out/new.txt",
    "link-out/deeper/new.txt",
    "secret-link",
    "dangling",
    "dangling-dir/x.txt",
    "dev-link",
    "pipe",
    "sub",
    ".",
    "abs-link/evil",
    "sub/../../outside/x.txt",
    ...(s.hasDevice ? ["null"] : []),
  ];
  return [
    ...[...escapes, ...specials].map((path) => ({ name: "Read", args: { path } })),
    { name: "Read", args: {} },
    { name: "Read", args: { path: 42 } },
    ...writes.map((path) => ({ name: "Write", args: { path, content: "PWNED" } })),
    { name: "Write", args: { path: "huge.txt", content: "x".repeat(WRITE_CAP + 1) } },
    ...["secret-link", "../outside/secret.txt", "link-out/secret.txt", abs, "pipe", "huge.txt", "dev-link"].map((path) => ({
      name: "Edit",
      args: { path, old_string: "TOP", new_string: "NOT" },
    })),
    { name: "Edit", args: { path: "ok.txt", old_string: "", new_string: "x" } },
    { name: "Bash", args: { command: "cat /etc/passwd" } },
    { name: "WebFetch", args: { url: "http://example.com" } },
  ];
}

/** The same files in read-only mode: every change is refused, even inside the project. */
const READ_ONLY_CORPUS: Call[] = [
  { name: "Write", args: { path: "ok.txt", content: "changed" } },
  { name: "Write", args: { path: "new.txt", content: "new" } },
  { name: "Edit", args: { path: "ok.txt", old_string: "fine", new_string: "changed" } },
];

let base: { path: string; [Symbol.asyncDispose]: () => Promise<void> };
let s: Sandbox;
beforeEach(async () => {
  await base?.[Symbol.asyncDispose]();
  base = tmpdir("od-hostile-");
  s = build(base.path);
});
afterAll(() => base?.[Symbol.asyncDispose]());

function expectUntouched(before: { project: Record<string, string>; outside: Record<string, string> }) {
  expect(snapshot(s.outside)).toEqual(before.outside);
  expect(snapshot(s.project)).toEqual(before.project);
  expect(existsSync(`/tmp/od-hostile-${process.pid}.txt`)).toBe(false);
  expect(readFileSync(join(s.outside, "secret.txt"), "utf8")).toBe("TOP SECRET");
}

describe.each(backends())("hostile tool calls, on the tools directly (%s)", (backend) => {
  beforeAll(() => useBackend(backend));
  afterAll(() => useBackend());

  test("every call of the corpus is refused, and nothing changes anywhere", () => {
    const before = { project: snapshot(s.project), outside: snapshot(s.outside) };
    const calls = corpus(s);
    expect(calls.length).toBeGreaterThan(40);
    for (const call of calls) {
      const out = runTool(s.root, "edit", call.name, call.args);
      expect({ call, isError: out.isError }).toEqual({ call, isError: true });
      expect(out.output.startsWith("Refused: ")).toBe(true);
      expect(out.output).not.toContain("TOP SECRET");
      expect(out.output).not.toContain("root:");
    }
    expectUntouched(before);
  });

  test("read-only mode refuses every change, inside the project too", () => {
    const before = { project: snapshot(s.project), outside: snapshot(s.outside) };
    for (const mode of ["read-only"] as Mode[])
      for (const call of READ_ONLY_CORPUS)
        expect(runTool(s.root, mode, call.name, call.args)).toEqual({
          isError: true,
          output: `Refused: ${call.name} is not available in read-only mode`,
        });
    expectUntouched(before);
  });

  test("a hard link to a file outside is replaced, never written through", () => {
    writeFileSync(join(s.outside, "target.txt"), "outside content");
    linkSync(join(s.outside, "target.txt"), join(s.project, "hard.txt"));
    expect(runTool(s.root, "edit", "Edit", { path: "hard.txt", old_string: "outside", new_string: "inside" }).isError).toBe(false);
    expect(readFileSync(join(s.project, "hard.txt"), "utf8")).toBe("inside content");
    expect(readFileSync(join(s.outside, "target.txt"), "utf8")).toBe("outside content");
  });
});

describe.each(PROVIDERS)("hostile tool calls through the loop (%s)", (provider) => {
  test("the model's whole corpus in one turn: all refused, all answered, the run still ends cleanly", async () => {
    const before = { project: snapshot(s.project), outside: snapshot(s.outside) };
    const calls = corpus(s);
    stub.script({ kind: "script", steps: [{ tools: calls }, { text: "I could not do any of it." }] });
    const events = await runApi({ cwd: s.project }, stubEnv(stub, provider, base.path));
    const results = ofType(events, "tool.result");
    expect(ofType(events, "tool.call")).toHaveLength(calls.length);
    expect(results.map((r) => r.id)).toEqual(ofType(events, "tool.call").map((c) => c.id));
    for (const r of results) expect(r.isError).toBe(true);
    expect(JSON.stringify(stub.requests.at(-1)!.body)).not.toContain("TOP SECRET");
    expect(finished(events).status).toBe("succeeded");
    expectUntouched(before);
  });

  test("read-only: no write tool is offered, and writes the model sends anyway are refused", async () => {
    const before = { project: snapshot(s.project), outside: snapshot(s.outside) };
    stub.script({
      kind: "script",
      steps: [{ tools: [...READ_ONLY_CORPUS, ...corpus(s).filter((c) => c.name !== "Read")] }, { text: "nothing changed" }],
    });
    const events = await runApi({ cwd: s.project, mode: "read-only" }, stubEnv(stub, provider, base.path));
    expect(stub.requests.at(-1)!.toolNames).toEqual(["Read"]);
    for (const r of ofType(events, "tool.result")) expect(r.isError).toBe(true);
    expectUntouched(before);
  });
});
