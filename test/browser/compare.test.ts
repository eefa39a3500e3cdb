/**
 * A compare run in the web UI (src/server/ui/compare.js), in Chromium at 1280 and 390 px against a
 * real server and the fake agents: the members' columns stream side by side (stacked on a phone),
 * then each one's diff with "Apply this one"; one is applied (the others' buttons then disable), and
 * an apply refused on a conflict says so and changes nothing; "Discard kept results" removes the
 * compare run's branches (asked first) and each column then says its result was discarded.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { startServer } from "../../src/server/serve.ts";
import { FAKE_ACP, installFake, tmpdir } from "../helpers.ts";
import { registry } from "../server/support.ts";
import { chromiumMissing, openPage, releaseBrowser, scrollsSideways, seriousViolations, takeBrowser, type WIDTHS } from "./support.ts";

const SHOTS = process.env.OD_SHOTS; // a folder: screenshots of each state, to look at

if (chromiumMissing) test.skip(`compare (chromium): skipped, ${chromiumMissing}`, () => {});
else describe("compare (chromium)", suite);

const script = [
  { read: "all" },
  { stdout: { t: "text", v: "Writing **new.txt** now." } },
  { sleep: 150 },
  { stdout: { t: "tool", id: "call-1", name: "Write" } },
  { touch: "new.txt" },
  { stdout: { t: "result", id: "call-1" } },
  { stdout: { t: "text", v: " Done: new.txt is written." } },
];
const acpText = (text: string) => ({ update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } } });

function repo(dir: string, name: string) {
  const path = join(dir, name);
  mkdirSync(path);
  Bun.spawnSync(["sh", "-c", "git init -q && git -c user.name=t -c user.email=t@t commit -q --allow-empty -m init"], { cwd: path });
  return path;
}

function suite() {
  let tmp: ReturnType<typeof tmpdir>;
  let server: ReturnType<typeof startServer>;
  let browser: Browser;

  beforeAll(async () => {
    tmp = tmpdir();
    const fake = installFake(tmp.path, "fake-agent", script);
    installFake(tmp.path, "fake-acp", { turn: [acpText("I looked, and "), { sleep: 100 }, acpText("nothing needs to change.")] }, FAKE_ACP);
    server = startServer({ host: "127.0.0.1", port: 0, maxRuns: 4, registry, env: fake.env });
    browser = await takeBrowser();
  }, 30_000);

  afterAll(async () => {
    if (browser) releaseBrowser();
    await server?.stop();
    await tmp?.[Symbol.asyncDispose]();
  });

  async function compare(width: keyof typeof WIDTHS, cwd: string, choose: (page: Page) => Promise<void>) {
    const page = await openPage(browser, `${server.url}?token=${server.token}`, width);
    await page.locator("#compare").waitFor({ state: "visible" });
    // The agents arrive after the page: Run before then submits a form with no agent (a busy machine showed it).
    await page.locator("input[name=compare-agent]").first().waitFor({ state: "attached" });
    await page.fill("#cwd", cwd);
    await page.fill("#prompt", "write new.txt");
    await page.click("#compare > summary");
    await choose(page);
    await page.click("#run");
    await page.locator(".compare-col").first().waitFor();
    return page;
  }

  const shot = (page: Page, name: string) => SHOTS && page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  test("1280 px: one agent repeated, side by side; applying one disables the other", async () => {
    const cwd = repo(tmp.path, "desk");
    const page = await compare("desktop", cwd, (p) => p.fill("#repeat", "2"));
    const cols = page.locator(".compare-col");
    expect(await cols.count()).toBe(2);
    expect(await cols.locator(".compare-label").allTextContents()).toEqual(["fake", "fake#2"]);
    // Side by side: the two columns share a row.
    const [a, b] = await Promise.all([cols.nth(0).boundingBox(), cols.nth(1).boundingBox()]);
    expect(a!.y).toBe(b!.y);
    expect(b!.x).toBeGreaterThan(a!.x + a!.width - 1);
    await cols.nth(1).locator(".agent-text", { hasText: "Done: new.txt is written." }).waitFor();
    const apply = page.getByRole("button", { name: /^Apply .*'s result$/ });
    await apply.nth(1).waitFor();
    expect(await cols.nth(0).locator(".compare-result summary").textContent()).toBe("1 file changed, +1 −0");
    expect(await page.locator(".compare-state").textContent()).toContain("All runs finished");
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "compare-1280-results");
    await page.getByRole("button", { name: "Apply fake#2's result" }).click();
    await page.locator(".compare-outcome.applied", { hasText: "fake#2's result is in" }).waitFor();
    expect(readFileSync(join(cwd, "new.txt"), "utf8")).toBe("written by the fake agent\n");
    expect(await apply.nth(0).isDisabled()).toBe(true);
    expect(await apply.nth(1).textContent()).toBe("Applied");
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "compare-1280-applied");
    await page.close();
  }, 30_000);

  test("390 px: two agents stacked, no sideways scroll; a conflicting apply is refused, then applies", async () => {
    const cwd = repo(tmp.path, "phone");
    const page = await compare("phone", cwd, (p) => p.check("input[name=compare-agent][value=fake-acp]"));
    const cols = page.locator(".compare-col");
    expect(await cols.locator(".compare-label").allTextContents()).toEqual(["fake", "fake-acp"]);
    await cols.nth(1).locator(".agent-text", { hasText: "nothing needs to change" }).waitFor();
    const apply = page.getByRole("button", { name: "Apply fake's result" });
    await apply.waitFor();
    expect(await cols.nth(1).locator(".compare-none").textContent()).toContain("Nothing to apply");
    const [a, b] = await Promise.all([cols.nth(0).boundingBox(), cols.nth(1).boundingBox()]);
    expect(b!.y).toBeGreaterThan(a!.y + a!.height - 1); // stacked
    expect(await scrollsSideways(page)).toBe(false);
    await page.locator(".compare-diff > summary").first().click(); // the diff open, still within the page
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "compare-390-results");
    // The user wrote new.txt meanwhile: refused, said plainly, nothing changed, and the button still works.
    writeFileSync(join(cwd, "new.txt"), "mine\n");
    await apply.click();
    const refused = page.locator(".compare-outcome.refused[role=alert]");
    await refused.waitFor();
    expect(await refused.textContent()).toContain("Not applied");
    expect(readFileSync(join(cwd, "new.txt"), "utf8")).toBe("mine\n");
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, "compare-390-refused");
    rmSync(join(cwd, "new.txt"));
    expect(await apply.isEnabled()).toBe(true);
    await apply.click();
    await page.locator(".compare-outcome.applied").waitFor();
    expect(existsSync(join(cwd, "new.txt"))).toBe(true);
    await page.close();
  }, 30_000);

  for (const width of ["desktop", "phone"] as const) {
    const px = width === "phone" ? 390 : 1280;
    test(`${px} px: Discard asks, then removes the kept branches; nothing is left to apply`, async () => {
      const cwd = repo(tmp.path, `discard-${width}`);
      const page = await compare(width, cwd, (p) => p.fill("#repeat", "2"));
      const discard = page.getByRole("button", { name: "Discard kept results" });
      await discard.waitFor();
      const branches = () =>
        Bun.spawnSync(["git", "branch", "--list", "od/*"], { cwd }).stdout.toString().trim().split("\n").filter(Boolean);
      expect(branches()).toHaveLength(2);
      await shot(page, `compare-discard-offered-${px}`);
      // Dismissed: nothing removed.
      page.once("dialog", (d) => d.dismiss());
      await discard.click();
      expect(branches()).toHaveLength(2);
      expect(await page.getByRole("button", { name: /^Apply .*'s result$/ }).count()).toBe(2);
      page.once("dialog", (d) => d.accept());
      await discard.click();
      await page.locator(".compare-outcome.applied", { hasText: "Removed 2 branches" }).waitFor();
      expect(branches()).toEqual([]);
      expect(await page.getByRole("button", { name: /^Apply .*'s result$/ }).count()).toBe(0);
      expect(await page.locator(".compare-none").allTextContents()).toEqual([
        "Nothing to apply: discarded.",
        "Nothing to apply: discarded.",
      ]);
      expect(await discard.isHidden()).toBe(true);
      expect(await scrollsSideways(page)).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      await shot(page, `compare-discarded-${px}`);
      // Opened again from the history: the results say they are gone, no Discard offered.
      await page.reload();
      const tab = page.getByRole("tab", { name: "History" });
      if (await tab.isVisible()) await tab.click();
      await page.locator("#runs button", { hasText: "write new.txt" }).first().click({ timeout: 10_000 });
      await page.locator(".compare-none").nth(1).waitFor();
      expect(await page.getByRole("button", { name: "Discard kept results" }).count()).toBe(0);
      await page.close();
    }, 60_000); // a compare run, then the page again and the run opened from the history
  }
}
