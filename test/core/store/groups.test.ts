/** group.json's schema: every value that later becomes a git argument or a path is checked as it is read. */
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { OdError } from "../../../src/core/contract/errors.ts";
import { readGroup, validGroup } from "../../../src/core/store/groups.ts";
import { tmpdir } from "../../helpers.ts";

const ID = "0b7e3c1a-5d2f-4e8a-9c6b-1f2e3d4c5b6a";
const SHA1 = "a".repeat(40);

/** A valid record: one member kept as a branch, one as a patch. */
function record() {
  const member = (label: string, kept: unknown) => ({
    label,
    agent: "pi",
    runId: "r-1",
    status: "succeeded",
    durationMs: 1,
    files: [],
    kept,
  });
  return {
    id: ID,
    cwd: "/home/u/work",
    prompt: "go",
    startedAt: 1,
    base: SHA1,
    members: [member("pi", { kind: "branch", branch: `od/${ID}/pi`, commit: SHA1 }), member("pi#2", { kind: "patch", file: "pi#2.patch" })],
  };
}

type Record = ReturnType<typeof record>;
const kept = (g: Record, i: number) => g.members[i]!.kept as Record["members"][0]["kept"] & { [k: string]: unknown };

/** Each change makes a record od would not have written; the second field is what the error names. */
const BAD: [string, (g: Record) => void, string][] = [
  ["a commit that is an option", (g) => (kept(g, 0).commit = "--output=/tmp/x"), "members.0.kept.commit"],
  ["a short commit", (g) => (kept(g, 0).commit = "abc123"), "members.0.kept.commit"],
  ["a commit in capitals", (g) => (kept(g, 0).commit = "A".repeat(40)), "members.0.kept.commit"],
  ["another group's branch", (g) => (kept(g, 0).branch = "od/other/pi"), "members.0.kept.branch"],
  ["a branch that is an option", (g) => (kept(g, 0).branch = "--delete"), "members.0.kept.branch"],
  ["a patch path that leaves the folder", (g) => (kept(g, 1).file = "../../victim.patch"), "members.1.kept.file"],
  ["an absolute patch path", (g) => (kept(g, 1).file = "/etc/passwd"), "members.1.kept.file"],
  ["a patch that is not a .patch", (g) => (kept(g, 1).file = "pi.txt"), "members.1.kept.file"],
  ["a label with a slash", (g) => (g.members[0]!.label = "a/b"), "members.0.label"],
  ["a label that is an option", (g) => (g.members[0]!.label = "-x"), "members.0.label"],
  ["a relative cwd", (g) => (g.cwd = "work"), "cwd"],
  ["a base that is an option", (g) => (g.base = "--all"), "base"],
  [
    "another id than its folder's",
    (g) => {
      g.id = "other";
      g.members = [];
    },
    "its id is not",
  ],
];

function write(dir: string, g: unknown): string {
  mkdirSync(join(dir, ID), { recursive: true });
  writeFileSync(join(dir, ID, "group.json"), JSON.stringify(g));
  return dir;
}

describe("group.json", () => {
  test("a record od wrote reads back as it is (sha1 and sha256 commits)", async () => {
    await using tmp = tmpdir();
    const g = record();
    expect(validGroup(write(tmp.path, g), ID)).toEqual(g as never);
    kept(g, 0).commit = "b".repeat(64);
    expect(validGroup(write(tmp.path, g), ID)?.members[0]?.kept).toMatchObject({ commit: "b".repeat(64) });
    expect(validGroup(tmp.path, "a-missing-one")).toBeUndefined();
  });

  for (const [what, change, named] of BAD)
    test(`refused: ${what}`, async () => {
      await using tmp = tmpdir();
      const g = record();
      change(g);
      write(tmp.path, g);
      let err: unknown;
      try {
        validGroup(tmp.path, ID);
      } catch (e) {
        err = e;
      }
      expect((err as OdError).code).toBe("INVALID_REQUEST");
      expect((err as OdError).message).toContain(`The record of compare run ${ID} is not valid (${named}`);
      expect(readGroup(tmp.path, ID)).toBeUndefined(); // a list leaves it out
    });

  test("a file that is not JSON is refused the same way", async () => {
    await using tmp = tmpdir();
    write(tmp.path, {});
    writeFileSync(join(tmp.path, ID, "group.json"), "{ not json");
    expect(() => validGroup(tmp.path, ID)).toThrow("is not valid");
  });
});
