/**
 * A conversation in the web UI, in Chromium at 1280 and 390 px against a real server and the fake
 * agent: the Run button says what it will do (Run, Run ×2, Compare 2, Continue); the prompt stays in
 * the box after a run; continuing the session appends the new turn below the first in one transcript;
 * the history shows the conversation as one entry, and opening it replays every turn in order and
 * offers to continue it. axe-core clean.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { FAKE_ACP, installFake } from "../helpers.ts";
import { loaded, servedSuite, showHistory } from "./shell-support.ts";
import { chromiumMissing, openPage, scrollsSideways, seriousViolations, WIDTHS } from "./support.ts";

const SHOTS = process.env.OD_SHOTS; // a folder: screenshots of each state, to look at

if (chromiumMissing) test.skip(`conversation (chromium): skipped, ${chromiumMissing}`, () => {});
else describe("a conversation (chromium)", suite);

setDefaultTimeout(60_000);

function suite() {
  const served = servedSuite((dir) => installFake(dir, "fake-acp", { turn: [] }, FAKE_ACP));

  const shot = (page: Page, name: string) => SHOTS && page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  for (const width of ["desktop", "phone"] as const) {
    const px = WIDTHS[width].width;

    test(`${px} px: the Run button says what it will do`, async () => {
      const page = await openPage(served.browser, `${served.server.url}?token=${served.server.token}`, width);
      await loaded(page);
      const run = page.locator("#run");
      expect(await run.textContent()).toBe("Run");
      await page.click("#compare > summary");
      await page.fill("#repeat", "2");
      expect(await run.textContent()).toBe("Run ×2");
      await page.fill("#repeat", "1");
      await page.check("input[name=compare-agent][value=fake-acp]");
      expect(await run.textContent()).toBe("Compare 2");
      await page.uncheck("input[name=compare-agent][value=fake-acp]");
      expect(await run.textContent()).toBe("Run");
      await page.close();
    });

    test(`${px} px: a continued session is one transcript and one history entry; opened again, every turn replays`, async () => {
      const cwd = join(served.tmp.path, `thread-${px}`);
      mkdirSync(cwd);
      const page = await openPage(served.browser, `${served.server.url}?token=${served.server.token}`, width);
      await loaded(page);
      await page.fill("#cwd", cwd);
      await page.fill("#prompt", `first question ${px}`);
      await page.click("#run");
      await page.locator("#run-status", { hasText: "Succeeded" }).waitFor();
      // The prompt stays: the same one may be run again, or changed a little.
      expect(await page.inputValue("#prompt")).toBe(`first question ${px}`);
      expect(await page.locator("#session").textContent()).toBe("sess-42");
      await page.check("#continue");
      expect(await page.locator("#run").textContent()).toBe("Continue");
      await page.fill("#prompt", `second question ${px}`);
      await page.click("#run");
      await page.locator("#output .finished").nth(1).waitFor();
      await page.locator("#run-status", { hasText: "Succeeded" }).waitFor();
      const out = page.locator("#output");
      expect(await out.locator(".prompt p").allTextContents()).toEqual([`first question ${px}`, `second question ${px}`]);
      expect(await out.locator(".finished").count()).toBe(2);
      expect((await out.textContent())?.match(/ALL DONE/g)).toHaveLength(2);
      expect(await scrollsSideways(page)).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `thread-${px}`);

      // One entry in the history, the conversation's, saying it has two turns.
      await showHistory(page);
      const entries = page.locator("#runs button", { hasText: `first question ${px}` });
      await entries.locator(".run-head", { hasText: "2 turns" }).waitFor();
      expect(await entries.count()).toBe(1);
      expect(await page.locator("#runs button", { hasText: `second question ${px}` }).count()).toBe(0);

      // Opened again from a fresh page: both turns, in order, in one transcript, and the session offered.
      await page.reload();
      await loaded(page);
      await showHistory(page);
      await page.locator("#runs button", { hasText: `first question ${px}` }).click();
      await out.locator(".finished").nth(1).waitFor();
      expect(await out.locator(".prompt p").allTextContents()).toEqual([`first question ${px}`, `second question ${px}`]);
      expect(await out.locator(".finished").count()).toBe(2);
      expect(await out.isVisible()).toBe(true);
      expect(await page.locator("#continue-row").isVisible()).toBe(true);
      expect(await page.locator("#session").textContent()).toBe("sess-42");
      expect(await page.locator("#banner").isHidden()).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `thread-replayed-${px}`);

      // Continued from the replay: the third turn goes below the other two.
      await page.check("#continue");
      await page.fill("#prompt", `third question ${px}`);
      await page.click("#run");
      await out.locator(".finished").nth(2).waitFor();
      expect(await out.locator(".prompt p").allTextContents()).toEqual([
        `first question ${px}`,
        `second question ${px}`,
        `third question ${px}`,
      ]);
      await page.close();
    });
  }
}
