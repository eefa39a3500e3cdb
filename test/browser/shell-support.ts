/** What the page shell's browser suites share: the fake agent's script, and a page that has loaded. */
import { expect } from "bun:test";
import type { Page } from "playwright-core";

/** The fake agent: "hang" hangs, "slow" takes a while, anything else writes a file (a tool call) with a long path. */
export const SCRIPT = [
  { read: "all" },
  {
    ifStdin: "hang",
    then: [{ stdout: { t: "text", v: "still working…" } }, { hang: true }],
    else: [
      {
        ifStdin: "slow",
        then: [{ stdout: { t: "text", v: "thinking slowly. " } }, { sleep: 1500 }, { stdout: { t: "text", v: "SLOW DONE" } }],
        else: [
          { stdout: { t: "session", v: "sess-42" } },
          { stdout: { t: "text", v: `Writing ${"/very-long-directory-name".repeat(8)}/file.ts. ` } },
          { sleep: 100 },
          { stdout: { t: "tool", id: "call-1", name: "Write" } },
          { stdout: { t: "result", id: "call-1" } },
          { stdout: { t: "usage", in: 1200, out: 300, source: "run" } },
          { stdout: { t: "text", v: "ALL DONE" } },
        ],
      },
    ],
  },
];

/** The page has loaded its agents (the fake one chosen) and the chosen agent's models and efforts. */
export async function loaded(page: Page) {
  // Locators, not waitForFunction: the page's Content-Security-Policy refuses the eval that takes.
  await page.locator("#effort:not([disabled]) option[value=high]").waitFor({ state: "attached" });
  expect(await page.inputValue("#agent")).toBe("fake");
}

/** The history: on a phone, its own tab. */
export async function showHistory(page: Page) {
  const tab = page.getByRole("tab", { name: "History" });
  if (await tab.isVisible()) await tab.click();
}
