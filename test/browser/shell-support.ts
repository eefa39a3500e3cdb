/** What the page shell's browser suites share: the fake agent's script, a served page's suite, and a page that has loaded. */
import { afterAll, beforeAll, expect } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { startServer } from "../../src/server/serve.ts";
import { installFake, tmpdir } from "../helpers.ts";
import { registry } from "../server/support.ts";
import { releaseBrowser, takeBrowser } from "./support.ts";

/**
 * The fake agent: "hang" hangs, "slow" goes on once the test has put a file named RELEASE in the run's
 * folder, anything else writes a file (a tool call) with a long path.
 */
export const RELEASE = "release-the-slow-run";
export const SCRIPT = [
  { read: "all" },
  {
    ifStdin: "hang",
    then: [{ stdout: { t: "text", v: "still working…" } }, { hang: true }],
    else: [
      {
        ifStdin: "slow",
        then: [{ stdout: { t: "text", v: "thinking slowly. " } }, { until: RELEASE }, { stdout: { t: "text", v: "SLOW DONE" } }],
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

/** What a suite's tests use: its folder, its od serve and its Chromium (set once its beforeAll ran). */
export interface Served {
  tmp: ReturnType<typeof tmpdir>;
  server: ReturnType<typeof startServer>;
  browser: Browser;
}

/**
 * One od serve over the fake agent and one Chromium for a suite, made before its tests and stopped
 * after them; `prepare` adds to the suite's folder first (another fake, a seeded history).
 */
export function servedSuite(prepare?: (dir: string) => void): Served {
  const served = {} as Served;
  beforeAll(async () => {
    served.tmp = tmpdir();
    const fake = installFake(served.tmp.path, "fake-agent", SCRIPT);
    prepare?.(served.tmp.path);
    served.server = startServer({ host: "127.0.0.1", port: 0, maxRuns: 4, registry, env: fake.env });
    served.browser = await takeBrowser();
  }, 30_000); // a cold Chromium can take longer than the default 5 s to start on a busy machine
  afterAll(async () => {
    if (served.browser) releaseBrowser();
    await served.server?.stop();
    await served.tmp?.[Symbol.asyncDispose]();
  });
  return served;
}
