import { expect, test } from "bun:test";
import { appliedText } from "../../src/cli/applied.ts";
import { patchKinds } from "../../src/core/workspace/apply.ts";

const base = { groupId: "g", label: "pi", dir: "/w", git: true, created: [] as string[], deleted: [] as string[] };
const a = { path: "a.txt", added: 1, removed: 0 };
const b = { path: "b.txt", added: 2, removed: 1 };

test("od apply names what it changed, a new file said so, and how to review each kind", () => {
  const cases: Array<[Parameters<typeof appliedText>[0], string, string]> = [
    [
      { ...base, files: [a, b], created: ["a.txt"] },
      "applied pi in /w: a.txt (new, +1 −0), b.txt (+2 −1)",
      "nothing was committed or staged: `git diff` shows the changes (b.txt), `git status` the new, untracked file (a.txt); then commit what you keep yourself",
    ],
    [
      { ...base, files: [b] },
      "applied pi in /w: b.txt (+2 −1)",
      "nothing was committed or staged: `git diff` shows the changes (b.txt); then commit what you keep yourself",
    ],
    [
      { ...base, files: [a], created: ["a.txt"] },
      "applied pi in /w: a.txt (new, +1 −0)",
      "nothing was committed or staged: `git status` the new, untracked file (a.txt); then commit what you keep yourself",
    ],
    [
      { ...base, files: [b], deleted: ["b.txt"] },
      "applied pi in /w: b.txt (deleted, +2 −1)",
      "nothing was committed or staged: `git diff` shows the changes (b.txt); then commit what you keep yourself",
    ],
    [
      { ...base, git: false, files: [a], created: ["a.txt"] },
      "applied pi in /w: a.txt (new, +1 −0)",
      "nothing was committed or staged: review the files in /w; then commit what you keep yourself",
    ],
  ];
  for (const [applied, out, advice] of cases) expect(appliedText(applied)).toEqual({ out, advice });
});

test("a patch's new and deleted files, from git's own headers", () => {
  const patch = [
    "diff --git a/a.txt b/a.txt",
    "new file mode 100644",
    "index 0000000..1111111",
    "diff --git a/b.txt b/b.txt",
    "index 2222222..3333333 100644",
    "diff --git a/c.txt b/c.txt",
    "deleted file mode 100644",
    "",
  ].join("\n");
  expect(patchKinds(patch, ["a.txt", "b.txt", "c.txt"])).toEqual({ created: ["a.txt"], deleted: ["c.txt"] });
});
