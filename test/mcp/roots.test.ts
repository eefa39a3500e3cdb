/** The MCP guard: what mode and which working directory a run_agent caller gets, as tables. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { OdError } from "../../src/core/contract/errors.ts";
import { checkCwd, checkMode, cwdAtLaunch, isUnder, type PathFacts, parseMaxMode, resolveRoots } from "../../src/mcp/roots.ts";
import { tmpdir } from "../helpers.ts";

/** The code an OdError carries, or "ok:<value>". */
function outcome(f: () => unknown): string {
  try {
    return `ok:${f()}`;
  } catch (err) {
    return err instanceof OdError ? err.code : `threw:${err}`;
  }
}

describe("checkMode", () => {
  const table: [string | undefined, "read-only" | "edit" | "full", string][] = [
    [undefined, "read-only", "ok:read-only"],
    [undefined, "full", "ok:read-only"], // the default stays narrow, whatever the server allows
    ["read-only", "read-only", "ok:read-only"],
    ["edit", "read-only", "FORBIDDEN"],
    ["full", "read-only", "FORBIDDEN"],
    ["edit", "edit", "ok:edit"],
    ["full", "edit", "FORBIDDEN"],
    ["read-only", "edit", "ok:read-only"],
    ["full", "full", "ok:full"],
    ["edit", "full", "ok:edit"],
    ["yolo", "full", "INVALID_REQUEST"],
  ];
  test.each(table)("asked %p, max %p -> %p", (asked, max, want) => expect(outcome(() => checkMode(asked, max))).toBe(want));

  test("a refusal says the maximum and how to get more", () => {
    const err = (() => {
      try {
        checkMode("full", "edit");
      } catch (e) {
        return e as OdError;
      }
    })();
    expect(err?.message).toBe('mode "full" is above this server\'s maximum, "edit"');
    expect(err?.hint).toContain("--max-mode full");
  });

  test("--max-mode parses the three modes only", () => {
    expect(parseMaxMode(undefined)).toBe("read-only");
    expect(parseMaxMode("edit")).toBe("edit");
    expect(outcome(() => parseMaxMode("all"))).toBe("INVALID_REQUEST");
  });
});

describe("checkCwd", () => {
  // A file system as a table: paths and where their symlinks lead; folders end in "/".
  const links: Record<string, string> = { "/work/repo/out": "/etc", "/work/repo/self": "/work/repo/src", "/tmp/in": "/work/repo" };
  const dirs = new Set(["/work/repo", "/work/repo/src", "/work/repo-evil", "/etc", "/work/other", "/", "/work"]);
  const files = new Set(["/work/repo/README.md"]);
  const fs: PathFacts = {
    realpath: (p) => {
      const real = links[p] ?? p;
      if (!dirs.has(real) && !files.has(real)) throw new Error("ENOENT");
      return real;
    },
    isDirectory: (p) => dirs.has(p),
  };
  const roots = ["/work/repo", "/work/other"];
  const table: [string | undefined, string][] = [
    [undefined, "ok:/work/repo"], // default: the first root
    [".", "ok:/work/repo"],
    ["src", "ok:/work/repo/src"], // relative to the first root
    ["/work/repo/src", "ok:/work/repo/src"],
    ["/work/other", "ok:/work/other"], // any root
    ["/work/repo/self", "ok:/work/repo/src"], // a symlink that stays inside
    ["/tmp/in", "ok:/work/repo"], // a symlink from outside onto a root
    ["/work/repo/out", "FORBIDDEN"], // a symlink inside that leads out
    ["/etc", "FORBIDDEN"],
    ["..", "FORBIDDEN"],
    ["/work/repo/../repo-evil", "FORBIDDEN"], // a name that starts like a root is not under it
    ["/", "FORBIDDEN"],
    ["/work/repo/nope", "INVALID_REQUEST"],
    ["README.md", "INVALID_REQUEST"], // a file, not a folder
  ];
  test.each(table)("cwd %p -> %p", (cwd, want) => expect(outcome(() => checkCwd(cwd, roots, fs))).toBe(want));

  test("at launch: the same check, the message saying the folder changed since the call", () => {
    expect(cwdAtLaunch("/work/repo/src", roots, fs)).toBe("/work/repo/src");
    expect(cwdAtLaunch("/work/repo/self", roots, fs)).toBe("/work/repo/src"); // the agent gets the real path
    expect(() => cwdAtLaunch("/work/repo/out", roots, fs)).toThrow(
      "cwd /work/repo/out (really /etc) is outside this server's roots, as the agent was about to start (it changed after run_agent was called)",
    );
    expect(outcome(() => cwdAtLaunch("/work/repo/gone", roots, fs))).toBe("INVALID_REQUEST");
  });

  test("no roots: nothing is allowed", () => expect(outcome(() => checkCwd("/work/repo", [], fs))).toBe("FORBIDDEN"));

  test("isUnder", () => {
    expect(isUnder("/a/b", "/a")).toBe(true);
    expect(isUnder("/a", "/a")).toBe(true);
    expect(isUnder("/ab", "/a")).toBe(false);
    expect(isUnder("/", "/a")).toBe(false);
    expect(isUnder("/a/..b", "/a")).toBe(true); // a folder named "..b" inside
  });

  test("on disk: symlinks resolved, roots resolved once", async () => {
    await using tmp = tmpdir();
    const root = join(tmp.path, "root");
    const outside = join(tmp.path, "outside");
    mkdirSync(join(root, "sub"), { recursive: true });
    mkdirSync(outside);
    symlinkSync(outside, join(root, "escape"));
    symlinkSync(root, join(tmp.path, "alias"));
    writeFileSync(join(root, "file.txt"), "x");
    const roots = resolveRoots([join(tmp.path, "alias")]); // a root given through a symlink is its real folder
    expect(roots).toEqual([realpathSync(root)]);
    expect(checkCwd("sub", roots)).toBe(realpathSync(join(root, "sub")));
    expect(outcome(() => checkCwd(join(root, "escape"), roots))).toBe("FORBIDDEN");
    expect(outcome(() => checkCwd(outside, roots))).toBe("FORBIDDEN");
    expect(outcome(() => checkCwd("file.txt", roots))).toBe("INVALID_REQUEST");
    expect(resolveRoots([], root)).toEqual([realpathSync(root)]); // default: here
    expect(outcome(() => resolveRoots([join(tmp.path, "missing")]))).toBe("INVALID_REQUEST");
    expect(outcome(() => resolveRoots([join(root, "file.txt")]))).toBe("INVALID_REQUEST");
  });
});
