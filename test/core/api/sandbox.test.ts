import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isInside, resolveInside, ToolError } from "../../../src/core/api/sandbox.ts";
import { READ_CAP, runTool, toolsFor } from "../../../src/core/api/tools.ts";
import { tmpdir } from "../../helpers.ts";
import { real } from "./harness.ts";

describe("resolveInside", () => {
  test("inside paths resolve to real paths; links that stay inside are followed", async () => {
    await using tmp = tmpdir();
    const root = real(tmp.path);
    mkdirSync(join(root, "a/b"), { recursive: true });
    writeFileSync(join(root, "a/b/f.txt"), "x");
    symlinkSync("a/b", join(root, "ab"));
    expect(resolveInside(root, "a/b/f.txt")).toBe(join(root, "a/b/f.txt"));
    expect(resolveInside(root, join(root, "a/b/f.txt"))).toBe(join(root, "a/b/f.txt"));
    expect(resolveInside(root, "ab/f.txt")).toBe(join(root, "a/b/f.txt"));
    expect(resolveInside(root, "ab/new/deeper.txt")).toBe(join(root, "a/b/new/deeper.txt"));
    expect(resolveInside(root, "a/../a/b/./f.txt")).toBe(join(root, "a/b/f.txt"));
    expect(resolveInside(root, ".")).toBe(root);
  });

  test("a sibling whose name starts like the root is outside", async () => {
    await using tmp = tmpdir();
    const root = join(real(tmp.path), "proj");
    mkdirSync(root);
    mkdirSync(`${root}-evil`);
    expect(() => resolveInside(root, `${root}-evil/x`)).toThrow(ToolError);
    expect(() => resolveInside(root, "../proj-evil/x")).toThrow("outside the project");
    expect(isInside("/a/b", "/a/b")).toBe(true);
    expect(isInside("/a/b", "/a/bc")).toBe(false);
    expect(isInside("/a/b", "/a/b/..c")).toBe(true);
  });

  test("non-strings, empty, NUL and absurdly long paths are refused", () => {
    for (const bad of [undefined, 3, {}, "", "  ", "x\u0000y", "a/".repeat(3000)])
      expect(() => resolveInside("/tmp", bad)).toThrow(ToolError);
  });
});

describe("tools", () => {
  test("read-only offers Read only; edit and full offer all three", () => {
    expect(toolsFor("read-only").map((t) => t.name)).toEqual(["Read"]);
    expect(toolsFor("edit").map((t) => t.name)).toEqual(["Read", "Write", "Edit"]);
    expect(toolsFor("full").map((t) => t.name)).toEqual(["Read", "Write", "Edit"]);
  });

  test("Edit must match exactly once (overlaps count); Write keeps the mode of a file it replaces", async () => {
    await using tmp = tmpdir();
    const root = real(tmp.path);
    writeFileSync(join(root, "f.txt"), "aaa b b");
    expect(runTool(root, "edit", "Edit", { path: "f.txt", old_string: "aa", new_string: "x" }).output).toContain("occurs 2 times");
    expect(runTool(root, "edit", "Edit", { path: "f.txt", old_string: "b", new_string: "x" }).output).toContain("occurs 2 times");
    expect(runTool(root, "edit", "Edit", { path: "f.txt", old_string: "zz", new_string: "x" }).output).toContain("occurs 0 times");
    expect(runTool(root, "edit", "Edit", { path: "f.txt", old_string: "b b", new_string: "b" }).isError).toBe(false);
    expect(readFileSync(join(root, "f.txt"), "utf8")).toBe("aaa b");
    chmodSync(join(root, "f.txt"), 0o755);
    expect(runTool(root, "edit", "Write", { path: "f.txt", content: "new" })).toEqual({
      isError: false,
      output: "Replaced f.txt (3 bytes)",
    });
    expect(statSync(join(root, "f.txt")).mode & 0o777).toBe(0o755);
  });

  test("edit mode leaves the repository's metadata alone (its config names commands git runs); full mode may change it; reading is fine", async () => {
    await using tmp = tmpdir();
    const root = real(tmp.path);
    mkdirSync(join(root, ".git"));
    writeFileSync(join(root, ".git", "config"), "[core]\n");
    for (const path of [".git/config", "./.git/hooks/pre-commit", "sub/../.GIT/config", "vendor/lib/.git/config"]) {
      expect(runTool(root, "edit", "Write", { path, content: '[diff "x"]\n\ttextconv = sh evil.sh\n' }).output).toContain("inside .git");
      expect(runTool(root, "edit", "Edit", { path, old_string: "[core]", new_string: "[x]" }).output).toContain("inside .git");
    }
    expect(readFileSync(join(root, ".git", "config"), "utf8")).toBe("[core]\n");
    expect(runTool(root, "edit", "Read", { path: ".git/config" })).toEqual({ isError: false, output: "[core]\n" });
    expect(runTool(root, "edit", "Write", { path: ".gitignore", content: "x\n" }).isError).toBe(false);
    expect(runTool(root, "full", "Edit", { path: ".git/config", old_string: "[core]", new_string: "[core]\n\tbare = false" }).isError).toBe(
      false,
    );
  });

  test("Read refuses binary files and says when a file is empty; a truncated tool input is refused", async () => {
    await using tmp = tmpdir();
    const root = real(tmp.path);
    writeFileSync(join(root, "bin"), Buffer.from([1, 0, 2]));
    writeFileSync(join(root, "empty"), "");
    writeFileSync(join(root, "max"), "y".repeat(READ_CAP));
    expect(runTool(root, "edit", "Read", { path: "bin" }).output).toContain("binary");
    expect(runTool(root, "edit", "Read", { path: "empty" })).toEqual({ isError: false, output: "(empty file)" });
    expect(runTool(root, "edit", "Read", { path: "max" }).output).toHaveLength(READ_CAP);
    expect(runTool(root, "edit", "Read", { _partial: '{"path": "x' }).output).toContain("not valid JSON");
  });
});
