/** What the web UI says a discard removed (src/server/ui/compare-result.js), from a table of POST /runs/:id/discard answers. */
import { describe, expect, test } from "bun:test";
import { discardedText } from "../../src/server/ui/compare-result.js";

const g = "0c1d";
const cases: Array<[string, { branches: string[]; patches: string[]; notes: string[] }, string]> = [
  ["one branch", { branches: [`od/${g}/fake`], patches: [], notes: [] }, `Removed 1 branch (od/${g}/fake).`],
  [
    "two branches",
    { branches: [`od/${g}/fake`, `od/${g}/fake#2`], patches: [], notes: [] },
    `Removed 2 branches (od/${g}/fake, od/${g}/fake#2).`,
  ],
  ["patches only", { branches: [], patches: ["a.patch", "b.patch"], notes: [] }, "Removed 2 patch files."],
  ["both", { branches: [`od/${g}/a`], patches: ["b.patch"], notes: [] }, `Removed 1 branch (od/${g}/a) and 1 patch file.`],
  ["nothing left", { branches: [], patches: [], notes: [] }, "Nothing was kept any more."],
  [
    "a branch checked out",
    { branches: [`od/${g}/a`], patches: [], notes: [`od/${g}/b was not removed: checked out`] },
    `Removed 1 branch (od/${g}/a). But od/${g}/b was not removed: checked out.`,
  ],
];

describe("discardedText", () => {
  for (const [name, discarded, said] of cases) test(name, () => expect(discardedText({ groupId: g, ...discarded })).toBe(said));
});
