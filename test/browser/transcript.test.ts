/**
 * The transcript (src/server/ui/transcript.js) in Chromium at 1280 and 390 px, fed by a real server
 * and the fake agents: a tool-using run with Markdown (raw HTML escaped) and a diff, a permission
 * request answered, a cancelled run without totals. The module is bundled on its own and loaded into
 * a harness page; the server's events are streamed to it as the page shell would.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { startServer } from "../../src/server/serve.ts";
import { ACP_SCRIPT, bundle, FAKE_SCRIPT, git, makeRepo, recorded } from "../fixtures/ui/transcript.ts";
import { FAKE_ACP, installFake, tmpdir } from "../helpers.ts";
import { readFrames, registry } from "../server/support.ts";
import { chromiumMissing, openPage, releaseBrowser, scrollsSideways, seriousViolations, takeBrowser, type WIDTHS } from "./support.ts";

const SHOTS = process.env.OD_SHOTS; // a folder: screenshots of each state, to look at

if (chromiumMissing) test.skip(`transcript (chromium): skipped, ${chromiumMissing}`, () => {});
else describe("transcript (chromium)", suite);

function suite() {
  let tmp: ReturnType<typeof tmpdir>;
  let server: ReturnType<typeof startServer>;
  let browser: Browser;
  let harness: string;

  beforeAll(async () => {
    tmp = tmpdir();
    makeRepo(join(tmp.path, "repo"));
    const fake = installFake(tmp.path, "fake-agent", FAKE_SCRIPT);
    installFake(tmp.path, "fake-acp", ACP_SCRIPT, FAKE_ACP);
    server = startServer({ host: "127.0.0.1", port: 0, maxRuns: 4, registry, env: fake.env });
    harness = bundle(tmp.path);
    browser = await takeBrowser();
  }, 60_000);

  afterAll(async () => {
    if (browser) releaseBrowser();
    await server?.stop();
    await tmp?.[Symbol.asyncDispose]();
  });

  const api = (path: string, body?: unknown) =>
    fetch(`${server.url}api${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { "x-od-token": server.token, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  /** A harness page holding a transcript for `agentName`; its Allow/Deny post to the server. */
  async function open(width: keyof typeof WIDTHS, agentName: string, runId: () => string): Promise<Page> {
    const page = await openPage(browser, "about:blank", width);
    await page.exposeFunction("odAnswer", async (id: string, decision: string) => {
      const res = await api(`/runs/${runId()}/permissions/${encodeURIComponent(id)}`, { decision });
      if (!res.ok) throw new Error(`answer: ${res.status}`);
    });
    await page.setContent(harness);
    await page.evaluate(`window.t = createTranscript(document.getElementById("output"), {
      agentName: ${JSON.stringify(agentName)}, answer: (id, d) => window.odAnswer(id, d) })`);
    return page;
  }

  /** Starts a run, shows its prompt, and streams its events into the page until run.finished. */
  async function run(page: Page, body: Record<string, unknown>, onStart: (runId: string) => void = () => {}) {
    const res = await api("/runs", { cwd: join(tmp.path, "repo"), mode: "edit", ...body });
    expect(res.status).toBe(201);
    const { runId } = (await res.json()) as { runId: string };
    onStart(runId);
    await page.evaluate(`t.prompt(${JSON.stringify(body.prompt)})`);
    const events = await api(`/runs/${runId}/events`);
    await readFrames(events.body!, (f) => {
      if (f.data) void page.evaluate(`t.event(${f.data})`);
      return f.event === "run.finished";
    });
    await page.locator(".finished").waitFor();
    return runId;
  }

  async function check(page: Page, name: string) {
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  }

  for (const width of ["desktop", "phone"] as const) {
    test(`${width}: a tool-using run shows the prompt, Markdown, the tool card and the diff`, async () => {
      const page = await open(width, "Fake Agent", () => "");
      git(join(tmp.path, "repo"), "checkout", "-q", "--", "README.md");
      await run(page, { agent: "fake", prompt: "Write <b>the</b> file" });
      const out = page.locator("#output");
      expect(await out.locator(".prompt").textContent()).toContain("Write <b>the</b> file");
      expect(await out.locator(".md strong").first().textContent()).toBe("bold");
      expect(await out.locator("img").count()).toBe(0);
      expect(await out.locator(".md").first().textContent()).toContain("<img src=x onerror=alert(1)>");
      const card = out.locator(".tool", { hasText: "Write" });
      expect(await card.getAttribute("data-status")).toBe("done");
      expect(await card.locator(".tool-status").textContent()).toBe("done");
      expect(await card.locator(".tool-time").textContent()).toMatch(/\d+(\.\d)? (ms|s)$/);
      await card.locator("summary").click();
      expect(await card.locator(".tool-input").isVisible()).toBe(true);
      expect(await card.locator(".tool-output").textContent()).toBe("ok");
      expect(await out.locator(".files-changed h3").textContent()).toBe("1 file changed");
      expect(await out.locator(".diff-add", { hasText: "+new line" }).count()).toBe(1);
      expect(await out.locator(".diff-del", { hasText: "-old line" }).count()).toBe(1);
      expect(await out.locator(".totals").count()).toBe(0);
      expect(await out.locator(".finished").textContent()).toMatch(/^succeeded in /);
      await check(page, `tool-run-${width}`);
      await page.close();
    }, 30_000);

    test(`${width}: a permission request in words, answered from the page`, async () => {
      let runId = "";
      const page = await open(width, "Fake ACP", () => runId);
      // Full mode: in edit mode the policy denies a command before anyone is asked (the mode is a ceiling).
      const done = run(page, { agent: "fake-acp", prompt: "clean up", ask: true, mode: "full" }, (id) => (runId = id));
      const box = page.locator(".permission");
      await box.waitFor();
      expect(await box.locator(".perm-question").textContent()).toBe("Fake ACP wants to run rm -rf build");
      expect(await box.locator(".perm-question code").textContent()).toBe("rm -rf build");
      expect(await box.locator(".perm-timer").textContent()).toMatch(/^Denied automatically in (1:5\d|2:00) without an answer\.$/);
      await check(page, `permission-${width}`);
      const decision = width === "desktop" ? "Allow" : "Deny";
      await box.getByRole("button", { name: decision }).focus();
      await page.keyboard.press("Enter");
      await box.locator(".perm-outcome").waitFor();
      expect(await box.locator(".perm-outcome").textContent()).toBe(`${decision === "Allow" ? "Allowed" : "Denied"} by you`);
      expect(await box.locator("button").count()).toBe(0);
      await done;
      if (decision === "Allow") {
        const card = page.locator(".tool", { hasText: "Read" });
        expect(await card.locator(".tool-arg").textContent()).toContain("src/very/long/path");
        await card.locator("summary").click();
        await card.getByRole("button", { name: /Show all/ }).click();
        expect((await card.locator(".tool-output").textContent())?.length).toBeGreaterThan(9000);
      }
      await check(page, `permission-answered-${width}`);
      await page.close();
    }, 30_000);
  }

  for (const width of ["desktop", "phone"] as const) {
    test(`${width}: through the real page, a tool-using run and a permission request answered`, async () => {
      git(join(tmp.path, "repo"), "checkout", "-q", "--", "README.md");
      const page = await openPage(browser, `${server.url}?token=${server.token}`, width);
      await page.locator("#agent option[value=fake]").waitFor({ state: "attached" });
      await page.fill("#cwd", join(tmp.path, "repo"));
      await page.fill("#prompt", "write the file");
      await page.click("#run");
      const out = page.locator("#output");
      await out.locator(".finished").waitFor();
      expect(await out.locator(".prompt").textContent()).toContain("write the file");
      expect(await out.locator(".md strong").first().textContent()).toBe("bold");
      expect(await out.locator("img").count()).toBe(0);
      expect(await out.locator(".tool .tool-status").textContent()).toBe("done");
      expect(await out.locator(".diff-add").count()).toBe(1);
      await check(page, `page-tool-run-${width}`);

      await page.selectOption("#agent", "fake-acp");
      await page.locator("details.more summary", { hasText: "More options" }).click();
      await page.check("#ask");
      await page.selectOption("#mode", "full"); // in edit mode the policy denies the command unasked
      await page.fill("#prompt", "clean up");
      await page.click("#run");
      const box = out.locator(".permission");
      await box.waitFor();
      expect(await box.locator(".perm-question").textContent()).toBe("Fake ACP wants to run rm -rf build");
      await check(page, `page-permission-${width}`);
      await box.getByRole("button", { name: "Allow" }).click();
      await box.locator(".perm-outcome", { hasText: "Allowed by you" }).waitFor();
      await out.locator(".finished").waitFor();
      await page.close();
    }, 30_000);
  }

  test("everything else, from a recorded run: thinking, a plan, a sub-agent, errors, a timed-out request, totals, both themes", async () => {
    const page = await open("phone", "Pi", () => "");
    await page.evaluate(`t.prompt("clean up"); for (const e of ${JSON.stringify(recorded())}) t.event(e)`);
    const out = page.locator("#output");
    expect(await out.locator("details.thinking").getAttribute("open")).toBeNull();
    const task = out.locator(".tool", { hasText: "Task" }).first();
    expect(await task.locator(".tool-arg").first().textContent()).toBe("explore");
    expect((await task.locator(".tool-children .md").textContent())?.trim()).toBe("Sub-agent says hi");
    expect(await task.locator(".tool-children .tool").getAttribute("data-status")).toBe("failed");
    expect(await task.locator(".tool-children .tool-arg").textContent()).toBe("/src/a.ts");
    expect(await out.locator(".tool", { hasText: "bash" }).locator(".tool-arg").textContent()).toBe("ls -la build");
    // The plan as a checklist: the later one replaced the first, each step's state said in words too.
    const plan = out.getByRole("region", { name: "Plan" });
    expect(await plan.count()).toBe(1);
    expect(await plan.locator(".plan-count").textContent()).toBe("1 of 3 done");
    expect(await plan.getByRole("listitem").allTextContents()).toEqual([
      "✓look at the build folder (done)",
      "▸clean it (in progress, high priority)",
      "○say what was removed (to do)",
    ]);
    expect(await out.locator(".perm-outcome").textContent()).toBe("Denied: nobody answered within 120 s");
    expect(await out.locator(".permission").textContent()).toContain("Pi wants to write src/x.ts");
    expect(await out.getByRole("alert").textContent()).toBe("Error: The agent hit a rate limitWait a minute and try again.");
    expect((await out.locator(".md").last().textContent())?.trim()).toBe("Done, see the diff.");
    expect(await out.locator(".diff-add").textContent()).toBe("+<img src=x onerror=alert(1)>\n");
    expect(await out.locator("img").count()).toBe(0);
    expect(await out.locator(".totals").textContent()).toBe("12,345 in · 678 out · $0.0123");
    expect(await out.locator(".finished").textContent()).toBe("failed in 12.3 s (exit 1) · session sess-abc");
    await out.locator(".tool summary").first().click();
    await check(page, "recorded-light");
    await page.emulateMedia({ colorScheme: "dark" });
    await check(page, "recorded-dark");
    await page.close();
  }, 30_000);

  test("a cancelled run shows how it ended and no zero totals", async () => {
    let runId = "";
    const page = await open("phone", "Fake Agent", () => runId);
    const done = run(page, { agent: "fake", prompt: "hang please" }, (id) => (runId = id));
    await page.locator(".md", { hasText: "working" }).waitFor();
    await api(`/runs/${runId}/cancel`, {});
    await done;
    expect(await page.locator(".finished").textContent()).toMatch(/^cancelled in /);
    expect(await page.locator(".totals").count()).toBe(0);
    expect(await page.locator("#output").textContent()).not.toContain("0 in");
    await page.close();
  }, 30_000);
}
