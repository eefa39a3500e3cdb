// beneath.ts with every backend this machine has: a path is reached from a directory handle without
// following any link (even one that stays inside: the caller resolved those before), and missing
// folders are made beneath their parent's handle, never through a link.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { closeSync, constants, existsSync, mkdirSync, readFileSync, readSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { backends, Dir, useBackend } from "../../../src/core/api/beneath.ts";
import { tmpdir } from "../../helpers.ts";
import { real } from "./harness.ts";

const base = tmpdir("od-beneath-");
afterAll(() => base[Symbol.asyncDispose]());

/** root/a/b/f.txt, root/ab -> a/b, root/a/lf -> b/f.txt, root/out -> ../outside (which has secret.txt). */
function build(name: string): { root: string; outside: string } {
  const root = join(base.path, name, "root");
  const outside = join(base.path, name, "outside");
  mkdirSync(join(root, "a/b"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(join(root, "a/b/f.txt"), "x");
  writeFileSync(join(outside, "secret.txt"), "OUTSIDE");
  symlinkSync("a/b", join(root, "ab"));
  symlinkSync("b/f.txt", join(root, "a/lf"));
  symlinkSync("../outside", join(root, "out"));
  return { root: real(root), outside };
}

/** A folder on the way that is a link: ELOOP, or ENOTDIR where O_DIRECTORY is checked first (Linux's openat). */
const REFUSED: Array<string | undefined> = ["ELOOP", "ENOTDIR"];

function codeOf(fn: () => unknown): string | undefined {
  try {
    const fd = fn();
    if (typeof fd === "number") closeSync(fd);
    return "no error";
  } catch (err) {
    return (err as NodeJS.ErrnoException).code;
  }
}

function readFd(fd: number): string {
  const buf = Buffer.alloc(64);
  try {
    return buf.subarray(0, readSync(fd, buf, 0, 64, 0)).toString();
  } finally {
    closeSync(fd);
  }
}

test("this machine has every way, best first; the path one is always last", () => {
  const have = backends();
  expect(have.at(-1)).toBe("path");
  if (process.platform === "linux") expect(have).toContain("procfs");
});

describe.each(backends())("%s", (name) => {
  let root = "";
  let outside = "";
  let top: Dir;
  beforeAll(() => {
    useBackend(name);
    ({ root, outside } = build(name));
    top = Dir.open(root);
  });
  afterAll(() => {
    top.close();
    useBackend();
  });

  test("a file is opened beneath the handle; a link on the way or at the end is refused, even one that stays inside", () => {
    expect(readFd(top.file(["a", "b", "f.txt"], constants.O_RDONLY))).toBe("x");
    expect(REFUSED).toContain(codeOf(() => top.file(["ab", "f.txt"], constants.O_RDONLY)));
    expect(codeOf(() => top.file(["a", "lf"], constants.O_RDONLY))).toBe("ELOOP");
    expect(REFUSED).toContain(codeOf(() => top.file(["out", "secret.txt"], constants.O_RDONLY)));
    expect(codeOf(() => top.file(["a", "missing"], constants.O_RDONLY))).toBe("ENOENT");
    expect(codeOf(() => top.file(["a", "b", "f.txt", "x"], constants.O_RDONLY))).toBe("ENOTDIR");
  });

  test("missing folders are made, each beneath its parent's handle; never through a link", () => {
    const made = top.sub(["n", "m", "o"], true);
    made.close();
    expect(statSync(join(root, "n/m/o")).isDirectory()).toBe(true);
    expect(REFUSED).toContain(codeOf(() => top.sub(["out", "x"], true)));
    expect(REFUSED).toContain(codeOf(() => top.sub(["ab", "x"], true)));
    expect(existsSync(join(outside, "x"))).toBe(false);
    expect(existsSync(join(root, "a/b/x"))).toBe(false);
    expect(codeOf(() => top.sub(["a", "missing"]))).toBe("ENOENT");
  });

  test("lstat, rename and unlink act on the entry itself", () => {
    const dir = top.sub(["a"]);
    try {
      expect(dir.lstat("lf")?.isSymbolicLink()).toBe(true);
      expect(dir.lstat("b")?.isDirectory()).toBe(true);
      expect(dir.lstat("missing")).toBeUndefined();
      const fd = dir.file(["t.tmp"], constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
      closeSync(fd);
      expect(statSync(join(root, "a/t.tmp")).mode & 0o777).toBe(0o600);
      expect(codeOf(() => dir.file(["t.tmp"], constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600))).toBe("EEXIST");
      dir.rename("t.tmp", "lf"); // replaces the link itself, not what it points at
      expect(dir.lstat("lf")?.isFile()).toBe(true);
      expect(readFileSync(join(root, "a/b/f.txt"), "utf8")).toBe("x");
      dir.unlink("lf");
      expect(dir.lstat("lf")).toBeUndefined();
    } finally {
      dir.close();
    }
  });

  test("only plain names: '..', '.', '' and slashed components are refused before any call", () => {
    for (const bad of [[".."], ["."], [""], ["a/b"], ["a", ".."]])
      expect(() => top.file(bad, constants.O_RDONLY)).toThrow("not a path component");
    expect(() => top.rename("a", "../x")).toThrow("not a path component");
  });
});
