/**
 * The web UI's page shell in a real browser (Debian's chromium through playwright-core), against a
 * real server and the fake agent, at a desktop and a phone width: a run streams while Run is
 * disabled, a start error and a cancelled run, a replay from history restores the form, a bare URL
 * gets a readable 401 page, and nothing scrolls sideways; axe-core checks the main states.
 */

import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import type { Page } from "playwright-core";
import { loaded, RELEASE, servedSuite, showHistory } from "./shell-support.ts";
import { chromiumMissing, openPage, scrollsSideways, seriousViolations, WIDTHS } from "./support.ts";

if (chromiumMissing) test.skip(`web UI shell (chromium): skipped, ${chromiumMissing}`, () => {});
else describe("web UI shell (chromium)", suite);

// Per test: a browser on a busy machine (axe-core, a reload, a run) needs more than the default 5 s.
setDefaultTimeout(30_000);

function suite() {
  const served = servedSuite();

  const shot = (page: Page, name: string) =>
    process.env.OD_SCREENSHOTS ? page.screenshot({ path: `${process.env.OD_SCREENSHOTS}/${name}.png`, fullPage: true }) : undefined;

  async function ready(width: keyof typeof WIDTHS) {
    const page = await openPage(served.browser, `${served.server.url}?token=${served.server.token}`, width);
    await loaded(page);
    return page;
  }

  async function runPrompt(page: Page, prompt: string, cwd = served.tmp.path) {
    await page.fill("#cwd", cwd);
    await page.fill("#prompt", prompt);
    await page.focus("#prompt");
    await page.keyboard.press("Control+Enter");
  }

  for (const width of ["desktop", "phone"] as const) {
    const px = WIDTHS[width].width;

    test(`${px} px: the empty form is accessible and fits`, async () => {
      const page = await ready(width);
      expect(await page.locator("#agent option[value=fake-acp]").isDisabled()).toBe(true);
      expect(await page.locator("#model").getAttribute("list")).toBe("models");
      expect(await page.locator("#models option").first().getAttribute("value")).toBe("default");
      expect(await scrollsSideways(page)).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `empty-${px}`);
      await page.close();
    });

    test(`${px} px: a run streams, Run is disabled until it ends, and the prompt shows`, async () => {
      const page = await ready(width);
      await runPrompt(page, "slow please");
      await page.locator("#output", { hasText: "thinking slowly" }).waitFor();
      expect(await page.locator("#run").isDisabled()).toBe(true);
      expect(await page.locator("#cancel").isEnabled()).toBe(true);
      expect(await page.locator("#output").textContent()).toContain("slow please");
      writeFileSync(join(served.tmp.path, RELEASE), ""); // the run goes on, and ends
      await page.locator("#output", { hasText: "SLOW DONE" }).waitFor();
      rmSync(join(served.tmp.path, RELEASE));
      await page.locator("#run-status", { hasText: "Succeeded" }).waitFor();
      expect(await page.locator("#run").isEnabled()).toBe(true);
      expect(await page.locator("#cancel").isDisabled()).toBe(true);
      await page.close();
    });

    test(`${px} px: a tool-using run, then a replay from history restores its form`, async () => {
      const page = await ready(width);
      await page.fill("#model", "fake-model-7");
      await page.selectOption("#mode", "read-only");
      await runPrompt(page, "write the file");
      await page.locator("#output", { hasText: "ALL DONE" }).waitFor();
      await page.locator("#run-status", { hasText: "Succeeded" }).waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `finished-${px}`);
      await page.emulateMedia({ colorScheme: "dark" }); // the dark theme passes too
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `finished-dark-${px}`);
      await page.emulateMedia({ colorScheme: "light" });

      await page.reload();
      await loaded(page);
      await page.fill("#prompt", "something else");
      await page.selectOption("#mode", "edit");
      await showHistory(page); // on a phone, its own tab
      const entry = page.locator("#runs button", { hasText: "write the file" }).first();
      expect(await entry.textContent()).toContain(basename(served.tmp.path)); // where it ran
      await entry.focus();
      await page.keyboard.press("Enter"); // keyboard only
      await page.locator("#output", { hasText: "ALL DONE" }).waitFor();
      await page.locator("#run-status", { hasText: "Succeeded" }).waitFor();
      expect(await page.inputValue("#agent")).toBe("fake");
      expect(await page.inputValue("#model")).toBe("fake-model-7");
      expect(await page.inputValue("#mode")).toBe("read-only");
      expect(await page.inputValue("#cwd")).toBe(served.tmp.path);
      expect(await page.inputValue("#prompt")).toBe("write the file");
      expect(await page.locator("#continue-row").isVisible()).toBe(true);
      expect(await page.locator("#session").textContent()).toBe("sess-42");
      await page.close();
    });

    test(`${px} px: a start error is an alert where the output goes; a cancelled run shows no totals`, async () => {
      const page = await ready(width);
      await runPrompt(page, "hang please");
      await page.locator("#output", { hasText: "still working" }).waitFor();
      await page.click("#cancel");
      await page.locator("#run-status", { hasText: "Cancelled" }).waitFor();
      expect(await page.locator("#output").textContent()).not.toMatch(/\$0\.0000|0 in/);
      await runPrompt(page, "write the file", "/no/such/dir");
      await page.locator("#alert", { hasText: "cwd is not an existing directory" }).waitFor();
      expect(await page.locator("#output").textContent()).toBe("");
      expect(await page.locator("#run").isEnabled()).toBe(true);
      await shot(page, `start-error-${px}`);
      await page.close();
    });

    test(`${px} px: a bare URL without the token gets a readable page (401)`, async () => {
      const page = await served.browser.newPage({ viewport: WIDTHS[width] });
      const res = await page.goto(served.server.url);
      expect(res?.status()).toBe(401);
      expect(await page.locator("h2").textContent()).toContain("Open the link");
      expect(await page.locator("body").textContent()).toContain("server-token");
      expect(await scrollsSideways(page)).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `no-token-${px}`);
      expect((await page.goto(`${served.server.url}?token=wrong`))?.status()).toBe(401);
      // The form on it takes the token and opens the working page.
      await page.fill("input[name=token]", served.server.token);
      await page.click("button[type=submit]");
      await loaded(page);
      await page.close();
    });
  }
}
