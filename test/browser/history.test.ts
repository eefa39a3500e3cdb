/**
 * A long history in the web UI, in Chromium at 1280 and 390 px: 45 past runs over ten days. The
 * history shows a page of them and "Show older" the next (no run twice, none lost); it filters by
 * status, agent and text; the page does not grow with it (a column of its own at 1280, a tab on a
 * phone, where opening an entry goes back to the output). axe-core clean.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { manyRuns, seedRuns } from "./seed.ts";
import { loaded, servedSuite, showHistory } from "./shell-support.ts";
import { chromiumMissing, openPage, scrollsSideways, seriousViolations, WIDTHS } from "./support.ts";

const SHOTS = process.env.OD_SHOTS; // a folder: screenshots of each state, to look at
const RUNS = 45;

if (chromiumMissing) test.skip(`history (chromium): skipped, ${chromiumMissing}`, () => {});
else describe("a long history (chromium)", suite);

setDefaultTimeout(60_000);

function suite() {
  const seeds = manyRuns(RUNS, "/home/me/project");
  const served = servedSuite((dir) => {
    mkdirSync(join(dir, ".od"), { recursive: true });
    seedRuns(join(dir, ".od"), seeds);
  });

  const shot = (page: Page, name: string) => SHOTS && page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  const prompts = (page: Page) => page.locator("#runs .run-prompt").allTextContents();
  const height = (page: Page) => page.evaluate<number>("document.documentElement.scrollHeight");

  for (const width of ["desktop", "phone"] as const) {
    const px = WIDTHS[width].width;

    test(`${px} px: pages of 20, "Show older" the next, every run once; the page does not grow with the history`, async () => {
      const page = await openPage(served.browser, `${served.server.url}?token=${served.server.token}`, width);
      await loaded(page);
      if (width === "phone") {
        // A tab, not a scroll below the output: the form's page holds no history.
        expect(await page.locator("#runs").isVisible()).toBe(false);
        expect(await height(page)).toBeLessThan(1300);
      }
      await showHistory(page);
      await page.locator("#runs li").nth(19).waitFor();
      expect(await page.locator("#runs li").count()).toBe(20);
      expect(await page.locator("#runs-count").textContent()).toBe(`20 of ${RUNS} shown`);
      expect((await prompts(page))[0]).toBe(`task ${RUNS - 1}`); // newest first
      if (width === "desktop") expect(await height(page)).toBeLessThan(1000); // the history scrolls in its own column
      expect(await scrollsSideways(page)).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `history-${px}`);

      const more = page.getByRole("button", { name: "Show older" });
      await more.click();
      await page.locator("#runs li").nth(39).waitFor();
      expect(await page.evaluate<string | undefined>("document.activeElement?.textContent")).toContain(`task ${RUNS - 21}`);
      await more.click();
      await page
        .locator("#runs li")
        .nth(RUNS - 1)
        .waitFor();
      expect(await more.isHidden()).toBe(true);
      const all = await prompts(page);
      expect(new Set(all).size).toBe(RUNS);
      expect(all.at(-1)).toBe("task 0");
      expect(await page.locator("#runs-count").textContent()).toBe("");
      await page.close();
    });

    test(`${px} px: filters by status, agent and text; an entry opened on a phone shows the output`, async () => {
      const page = await openPage(served.browser, `${served.server.url}?token=${served.server.token}`, width);
      await loaded(page);
      await showHistory(page);
      await page.locator("#runs li").first().waitFor();
      const failed = seeds.filter((s) => s.status === "failed").map((s) => s.prompt);
      await page.selectOption("#history-status", "failed");
      await page
        .locator("#runs li")
        .nth(failed.length - 1)
        .waitFor();
      expect((await prompts(page)).sort()).toEqual([...failed].sort());
      expect(await page.locator("#runs .badge").allTextContents()).toEqual(failed.map(() => "failed"));
      await page.selectOption("#history-status", "");
      await page.selectOption("#history-agent", "claude");
      await page.fill("#history-q", "readme");
      const wanted = seeds.filter((s) => s.agent === "claude" && s.prompt.includes("README")).map((s) => s.prompt);
      expect(wanted.length).toBeGreaterThan(0);
      await page
        .locator("#runs li")
        .filter({ hasText: "README" })
        .nth(wanted.length - 1)
        .waitFor();
      await expectSoon(async () => (await prompts(page)).sort().join("|"), [...wanted].sort().join("|"));
      await page.fill("#history-q", "no such run anywhere");
      await page.locator("#runs-empty", { hasText: "No run matches" }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `history-filtered-${px}`);

      await page.fill("#history-q", "");
      await page.selectOption("#history-agent", "");
      await page.locator("#runs button", { hasText: `task ${RUNS - 1}` }).click();
      await page.locator("#output", { hasText: `Answer to task ${RUNS - 1}` }).waitFor();
      expect(await page.locator("#output").isVisible()).toBe(true);
      if (width === "phone") {
        expect(await page.getByRole("tab", { name: "Output" }).getAttribute("aria-selected")).toBe("true");
        expect(await page.locator("#runs").isVisible()).toBe(false);
      }
      await page.close();
    });
  }
}

/** Polls `read` until it gives `want` (a list that settles after a debounce), then checks it. */
async function expectSoon(read: () => Promise<string>, want: string) {
  for (let i = 0; i < 50 && (await read()) !== want; i++) await Bun.sleep(100);
  expect(await read()).toBe(want);
}
