/**
 * A fresh start with no agent ready, in Chromium at 1280 and 390 px: every built-in adapter (and the
 * fake one) is missing from a bare PATH, in a fresh OD_HOME. The page says how to get an agent where
 * the user looks (the install commands, the API loop's environment variables); Run with no agent says
 * so instead of doing nothing; once the fake agent is installed, "Check again" finds it and the page
 * is ready to run. axe-core clean, nothing scrolling sideways.
 */
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { loadRegistry } from "../../src/builtins.ts";
import { createRegistry } from "../../src/core/agents/registry.ts";
import { startServer } from "../../src/server/serve.ts";
import { installFake, tmpdir } from "../helpers.ts";
import { fakeAdapter } from "../support/fake-adapter.ts";
import { SCRIPT } from "./shell-support.ts";
import { chromiumMissing, openPage, releaseBrowser, scrollsSideways, seriousViolations, takeBrowser, WIDTHS } from "./support.ts";

const SHOTS = process.env.OD_SHOTS; // a folder: screenshots of each state, to look at

if (chromiumMissing) test.skip(`no agent ready (chromium): skipped, ${chromiumMissing}`, () => {});
else describe("no agent ready (chromium)", suite);

setDefaultTimeout(90_000);

function suite() {
  const cleanup: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const done of cleanup.splice(0).reverse()) await done();
  });

  for (const width of ["desktop", "phone"] as const) {
    const px = WIDTHS[width].width;

    test(`${px} px: the page names how to get an agent; Run says none is ready; Check again finds one`, async () => {
      const tmp = tmpdir();
      cleanup.push(() => tmp[Symbol.asyncDispose]());
      const bin = join(tmp.path, "bin");
      // Every built-in adapter, and the fake one, on a PATH with none of them: a fresh machine.
      const env = {
        PATH: `${bin}:/usr/bin:/bin`,
        HOME: tmp.path,
        OD_HOME: join(tmp.path, ".od"),
        OD_NO_PLUGINS: "1",
        OD_SANDBOX_ALLOW: tmp.path,
      };
      const registry = createRegistry([...(await loadRegistry([])).list(), fakeAdapter]);
      const server = startServer({ host: "127.0.0.1", port: 0, maxRuns: 2, registry, env });
      cleanup.push(() => server.stop());
      const browser: Browser = await takeBrowser();
      cleanup.push(async () => releaseBrowser());
      const page = await openPage(browser, `${server.url}?token=${server.token}`, width);

      const setup = page.locator("#setup");
      await setup.waitFor();
      expect(await setup.locator("h2").textContent()).toBe("No agent is ready yet");
      const text = (await setup.textContent()) ?? "";
      expect(text).toContain("npm install -g @anthropic-ai/claude-code");
      expect(text).toContain("OD_API_BASE_URL=http://localhost:11434/v1");
      expect(text).toContain("ANTHROPIC_API_KEY");
      expect(text).toContain("OPENAI_API_KEY");
      // Where the user looks: at the top of the page, above the form.
      const [box, form] = await Promise.all([setup.boundingBox(), page.locator("#form").boundingBox()]);
      expect(box!.y).toBeLessThan(form!.y);
      expect(await scrollsSideways(page)).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      if (SHOTS) await page.screenshot({ path: join(SHOTS, `setup-${px}.png`), fullPage: true });

      // Run is no silent no-op: it says why nothing runs, and where to look.
      await page.fill("#prompt", "hello");
      await page.click("#run");
      const alert = setup.getByRole("alert");
      await alert.filter({ hasText: "No agent is ready to run this" }).waitFor();
      expect(await page.locator("#run-status").textContent()).toContain("no agent is ready");
      expect(await page.locator("#output").textContent()).toBe("");
      expect(await page.evaluate<string | undefined>("document.activeElement?.id")).toBe("setup-title");
      expect(await seriousViolations(page)).toEqual([]);
      if (SHOTS) await page.screenshot({ path: join(SHOTS, `setup-run-${px}.png`) });

      // The user installs an agent; Check again finds it, and the page is ready to run.
      installFake(tmp.path, "fake-agent", SCRIPT);
      await page.getByRole("button", { name: "Check again" }).click();
      await setup.waitFor({ state: "hidden" });
      expect(await page.inputValue("#agent")).toBe("fake");
      expect(await page.locator("#run-status").textContent()).toBe("Fake Agent is ready.");
      await page.fill("#cwd", tmp.path);
      await page.click("#run");
      await page.locator("#output", { hasText: "ALL DONE" }).waitFor();
      await page.close();
    });
  }
}
