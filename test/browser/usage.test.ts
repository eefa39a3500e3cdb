/**
 * The Usage view (src/server/ui/usage.js, chart.js) in Chromium at 1280 and 390 px, against real
 * servers over a seeded run history: the header's link opens it, the charts name every agent and the
 * totals (aria-label, tooltips, the tables), the period choice reloads it, an empty history says so,
 * nothing scrolls sideways, and axe-core finds nothing serious. OD_SHOTS=<folder> keeps screenshots.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { RunLog } from "../../src/core/store/run-log.ts";
import { runsDirOf } from "../../src/core/workspace/apply.ts";
import { startServer } from "../../src/server/serve.ts";
import { installFake, tmpdir } from "../helpers.ts";
import { registry } from "../server/support.ts";
import { recordRuns } from "../support/usage-runs.ts";
import { chromiumMissing, openPage, releaseBrowser, scrollsSideways, seriousViolations, takeBrowser, WIDTHS } from "./support.ts";

const SHOTS = process.env.OD_SHOTS; // a folder: screenshots of each state, to look at
const H = 3_600_000;
const D = 24 * H;

if (chromiumMissing) test.skip(`usage view (chromium): skipped, ${chromiumMissing}`, () => {});
else describe("usage view (chromium)", suite);

setDefaultTimeout(30_000);

function suite() {
  let tmp: ReturnType<typeof tmpdir>;
  let seeded: ReturnType<typeof startServer>;
  let empty: ReturnType<typeof startServer>;
  let browser: Browser;

  beforeAll(async () => {
    tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-agent", []);
    const now = Date.now();
    recordRuns(new RunLog(runsDirOf(fake.env)), [
      { agent: "claude", startedAt: now - H, durationMs: 65_000, inputTokens: 4000, outputTokens: 1000, costUsd: 0.3 },
      {
        agent: "claude",
        startedAt: now - 2 * D,
        durationMs: 30_000,
        inputTokens: 2000,
        outputTokens: 500,
        costUsd: 0.12,
        status: "failed",
      },
      { agent: "codex", startedAt: now - D, durationMs: 150_000, inputTokens: 3000, outputTokens: 600 },
      { agent: "codex", startedAt: now - 3 * D, durationMs: 20_000, inputTokens: 1000, outputTokens: 200 },
      { agent: "pi", startedAt: now - 20 * D, durationMs: 5_000, inputTokens: 500, outputTokens: 100 },
    ]);
    seeded = startServer({ host: "127.0.0.1", port: 0, maxRuns: 2, registry, env: fake.env });
    empty = startServer({ host: "127.0.0.1", port: 0, maxRuns: 2, registry, env: { ...fake.env, OD_HOME: `${tmp.path}/empty-home` } });
    browser = await takeBrowser();
    // A cold Chromium's first page took 12 s here on a busy machine (load 30 on 2 cores): paid once, before the tests' own 30 s.
    await (await openPage(browser, `${empty.url}?token=${empty.token}`)).close();
  }, 60_000);

  afterAll(async () => {
    if (browser) releaseBrowser();
    await seeded?.stop();
    await empty?.stop();
    await tmp?.[Symbol.asyncDispose]();
  });

  const shot = (page: Page, name: string) => (SHOTS ? page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true }) : undefined);

  /** The page, opened through its launch link, then the header's Usage link. */
  async function usage(server: typeof seeded, width: keyof typeof WIDTHS) {
    const page = await openPage(browser, `${server.url}?token=${server.token}`, width);
    await page.getByRole("link", { name: "Usage" }).click();
    await page.locator("#usage h2", { hasText: "Usage" }).waitFor();
    expect(await page.locator("#workbench").isHidden()).toBe(true);
    return page;
  }

  for (const width of ["desktop", "phone"] as const) {
    const px = WIDTHS[width].width;

    test(`${px} px: the charts show every agent and the totals, as pictures, tooltips and tables`, async () => {
      const page = await usage(seeded, width);
      const summary = page.locator("#usage-summary");
      await summary.waitFor();
      expect(await summary.textContent()).toBe(
        "5 runs by 3 agents: 12.9k tokens (10.5k in, 2.4k out), $0.42 reported by 2 of them, 4 min 30 s of running.",
      );
      expect(await page.locator("#usage-legend li").allTextContents()).toEqual(["claude", "codex", "pi"]);
      const charts = page.locator("#usage svg[role=img]");
      expect(await charts.count()).toBe(3);
      const [tokensLabel, costLabel, timeLabel] = await Promise.all([0, 1, 2].map((i) => charts.nth(i).getAttribute("aria-label")));
      expect(tokensLabel).toBe("Tokens per day over the last 30 days, stacked by agent: 12.9k in all (claude 7.5k, codex 4.8k, pi 600).");
      expect(costLabel).toStartWith("Cost per day over the last 30 days: $0.42 in all, the most on ");
      expect(timeLabel).toBe("Time of the latest 5 runs, oldest first: 30.0 s for the middle one, 2 min 30 s the longest.");
      // One bar per agent and day (the five runs were on five days), each with its tooltip.
      const bars = charts.nth(0).locator("rect");
      expect(await bars.count()).toBe(5);
      const tips = await charts.nth(0).locator("rect > title").allTextContents();
      expect(tips.filter((t) => t.startsWith("claude, ")).map((t) => t.split(": ")[1])).toEqual([
        "2.5k tokens (2k in, 500 out), $0.12, 1 run",
        "5k tokens (4k in, 1k out), $0.30, 1 run",
      ]);
      expect(await charts.nth(2).locator("rect.hollow").count()).toBe(1); // the failed run
      const total = page.locator("#usage-agents tbody tr").last();
      expect(await total.locator("th, td").allTextContents()).toEqual(["Total", "5", "10.5k", "2.4k", "$0.42", "4 min 30 s"]);
      await page.locator("#usage details summary").click();
      expect(await page.locator("#usage-days tbody tr").count()).toBe(5);
      expect(await page.locator("#usage-runs tbody tr").count()).toBe(5);
      await page.close();
    });

    test(`${px} px: the charts and tables fit and are accessible`, async () => {
      const page = await usage(seeded, width);
      await page.locator("#usage details summary").click();
      expect(await scrollsSideways(page)).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `usage-${px}`);
      await page.close();
    });

    test(`${px} px: an empty history says so, and the Workbench link brings the form back`, async () => {
      const page = await usage(empty, width);
      await page.locator(".usage-empty", { hasText: "No runs in the last 30 days" }).waitFor();
      expect(await page.locator("#usage svg").count()).toBe(0);
      expect(await scrollsSideways(page)).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `usage-empty-${px}`);
      await page.getByRole("link", { name: "Workbench" }).click();
      await page.locator("#form").waitFor();
      expect(await page.locator("#usage").isHidden()).toBe(true);
      await page.close();
    });
  }

  test("390 px, dark: the series' colours and the axes change with the page's (usage.css); still nothing serious", async () => {
    const page = await usage(seeded, "phone");
    await page.emulateMedia({ colorScheme: "dark" });
    await page.locator("#usage details summary").click();
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "usage-dark-390");
    await page.close();
  });

  test("the period choice reloads the view: the last 7 days leave the run of 20 days ago out; the focus goes where it should", async () => {
    const page = await usage(seeded, "desktop");
    await page.locator("#usage-summary").waitFor();
    // Opened by its link, the view takes the focus (its heading), so a screen reader starts there.
    expect(await page.evaluate<string>("document.activeElement.id")).toBe("usage-title");
    // By the keyboard, as a person would: the choice has the focus, Up picks the period before (7 days).
    await page.focus("#usage-days");
    await page.keyboard.press("ArrowUp");
    await page.locator("#usage-summary", { hasText: "4 runs by 2 agents" }).waitFor();
    // A new period keeps the focus on its choice.
    expect(await page.evaluate<string>("document.activeElement.id")).toBe("usage-days");
    expect(await page.locator("#usage-legend li").allTextContents()).toEqual(["claude", "codex"]);
    expect(await page.locator("#usage svg[role=img]").first().getAttribute("aria-label")).toContain("the last 7 days");
    await page.close();
  });
}
