import { describe, expect, test } from "bun:test";
import { chmodSync, lstatSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { chooseSandbox, type Support, sandboxSupport } from "../../../src/core/os/sandbox/choose.ts";
import { DEVICES, gitPaths, policyFor } from "../../../src/core/os/sandbox/policy.ts";
import { sbplString, seatbeltProfile } from "../../../src/core/os/sandbox/seatbelt.ts";
import { prepareSandbox } from "../../../src/core/os/sandbox/wrap.ts";
import { tmpdir } from "../../helpers.ts";

describe("policyFor: what each mode may write", () => {
  const base = { cwd: "/w", state: ["/h/.cli", "/h/.cli.json"], tmp: "/t/od-run-1" };

  test("read-only: the CLI's state, the private temp folder, the terminal's devices; not the working directory", () => {
    expect(policyFor({ ...base, mode: "read-only" })).toEqual({
      writable: ["/h/.cli", "/h/.cli.json", "/t/od-run-1", ...DEVICES],
      readOnly: [],
    });
  });

  test("edit: the working directory first; full: no policy at all", () => {
    expect(policyFor({ ...base, mode: "edit" })?.writable[0]).toBe("/w");
    expect(policyFor({ ...base, mode: "full" })).toBeUndefined();
  });

  test("extra folders the user allows, once each", () => {
    expect(policyFor({ ...base, mode: "read-only", allow: ["/a", "/t/od-run-1"] })?.writable).toEqual([
      "/h/.cli",
      "/h/.cli.json",
      "/t/od-run-1",
      "/a",
      ...DEVICES,
    ]);
  });
});

describe("gitPaths: the .git edit mode keeps read-only", () => {
  test("a repository's .git folder", async () => {
    await using tmp = tmpdir();
    mkdirSync(join(tmp.path, ".git"));
    expect(gitPaths(tmp.path, [])).toEqual([join(tmp.path, ".git")]);
  });

  test("no .git: nothing", async () => {
    await using tmp = tmpdir();
    expect(gitPaths(tmp.path, [])).toEqual([]);
  });

  test("a worktree's .git file; the git dir it names too when that is writable", async () => {
    await using tmp = tmpdir();
    const work = join(tmp.path, "work");
    mkdirSync(join(tmp.path, "repo", ".git", "worktrees", "w"), { recursive: true });
    mkdirSync(work);
    writeFileSync(join(work, ".git"), "gitdir: ../repo/.git/worktrees/w\n");
    expect(gitPaths(work, [])).toEqual([join(work, ".git")]);
    const named = join(tmp.path, "repo", ".git", "worktrees", "w");
    expect(gitPaths(work, [join(tmp.path, "repo")])).toEqual([join(work, ".git"), named]);
  });

  test("a .git link is kept read-only as what it leads to", async () => {
    await using tmp = tmpdir();
    mkdirSync(join(tmp.path, "elsewhere"));
    symlinkSync(join(tmp.path, "elsewhere"), join(tmp.path, ".git"));
    expect(gitPaths(tmp.path, [])).toEqual([join(tmp.path, ".git")]);
  });
});

describe("chooseSandbox", () => {
  const policy = { writable: ["/w"], readOnly: ["/w/.git"] };
  const landlock: Support = { kind: "landlock", abi: 7, protect: true };
  const none: Support = { kind: "none", reason: "this kernel has no Landlock" };
  const choose = (over: Partial<Parameters<typeof chooseSandbox>[0]>) =>
    chooseSandbox({ setting: "auto", mode: "edit", where: "here", policy, support: () => landlock, ...over });

  test("held where the kernel can; full mode and --sandbox off are not", () => {
    expect(choose({})).toEqual({ kind: "landlock", policy });
    expect(choose({ mode: "full", policy: undefined })).toEqual({ kind: "none" });
    expect(choose({ setting: "off" })).toMatchObject({ kind: "none", note: expect.stringContaining("--sandbox off") });
  });

  test("auto says why not; require refuses (SANDBOX_UNAVAILABLE, exit 77)", () => {
    expect(choose({ support: () => none })).toEqual({
      kind: "none",
      note: "this kernel has no Landlock: only the CLI's own flags hold the mode",
    });
    expect(() => choose({ setting: "require", support: () => none })).toThrow(
      expect.objectContaining({ code: "SANDBOX_UNAVAILABLE", message: expect.stringContaining("this kernel has no Landlock") }),
    );
    expect(() => choose({ setting: "require", where: { target: "ssh://box" } })).toThrow(
      expect.objectContaining({ code: "SANDBOX_UNAVAILABLE", message: expect.stringContaining("on ssh://box") }),
    );
  });

  test("without user namespaces .git cannot be held: auto says so, require refuses", () => {
    const partial: Support = { kind: "landlock", abi: 7, protect: false, reason: "no user namespaces here" };
    expect(choose({ support: () => partial })).toEqual({
      kind: "landlock",
      policy: { writable: ["/w"], readOnly: [] },
      note: "no user namespaces here",
    });
    expect(() => choose({ setting: "require", support: () => partial })).toThrow(expect.objectContaining({ code: "SANDBOX_UNAVAILABLE" }));
    // read-only has nothing to protect inside a writable folder: whole.
    expect(choose({ mode: "read-only", policy: { writable: ["/s"], readOnly: [] }, support: () => partial }).note).toBeUndefined();
  });

  test("od's own loop is held by od's own tools", () => {
    expect(choose({ where: "in-process", setting: "require" })).toEqual({ kind: "in-process" });
  });
});

describe("seatbeltProfile (macOS; generated and checked here, run there)", () => {
  test("writes denied but beneath the writable paths, and the read-only ones denied again after", () => {
    expect(seatbeltProfile({ writable: ["/Users/u/.claude", "/private/tmp/od-run-1"], readOnly: ["/Users/u/p/.git"] })).toBe(
      [
        "(version 1)",
        "(allow default)",
        "(deny file-write*)",
        "(allow file-write*",
        '  (subpath "/Users/u/.claude")',
        '  (subpath "/private/tmp/od-run-1")',
        '  (regex #"^/dev/ttys[0-9]+$"))',
        "(deny file-write*",
        '  (subpath "/Users/u/p/.git"))',
        "",
      ].join("\n"),
    );
  });

  test("a path cannot break out of its string", () => {
    expect(sbplString('/a"b\\c')).toBe('"/a\\"b\\\\c"');
    expect(() => sbplString("/a\nb")).toThrow(/control character/);
  });
});

describe("state folders in a folder everyone may write (/tmp)", () => {
  const landlock = sandboxSupport().kind === "landlock";
  test.skipIf(!landlock)("a link someone planted there is not granted; a folder of this user's is, made when missing", async () => {
    await using tmp = tmpdir();
    const shared = join(tmp.path, "shared");
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    const planted = join(shared, "cli-locks-planted");
    symlinkSync(join(tmp.path, "victim"), planted);
    const fresh = join(shared, "cli-locks-fresh");
    const policy = { writable: [planted, fresh], readOnly: [] };
    const prepared = prepareSandbox({ kind: "landlock", policy }, ["/bin/true"], undefined, [planted, fresh]);
    expect(prepared.cmd).not.toContain(planted);
    expect(prepared.cmd).toContain(fresh);
    expect(lstatSync(fresh).isDirectory()).toBe(true);
  });
});
