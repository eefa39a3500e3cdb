/**
 * What the browser suites share: whether Chromium is here (decided once, before anything is made),
 * a Chromium launched the same way everywhere, pages at desktop and phone widths, and an axe-core
 * check of the page's current state. A suite without Chromium is one skipped test naming why.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type Browser, chromium, type Page } from "playwright-core";

export const CHROMIUM = process.env.OD_CHROMIUM ?? "/usr/bin/chromium";

/** Why the browser suites cannot run here, or undefined when they can. */
export const chromiumMissing = existsSync(CHROMIUM) ? undefined : `no Chromium at ${CHROMIUM} (install it, or set OD_CHROMIUM to its path)`;

/** The widths every page is checked at: a desktop and a phone. */
export const WIDTHS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } } as const;

function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

let shared: { browser: Promise<Browser>; users: number; closing?: ReturnType<typeof setTimeout> } | undefined;

/**
 * The Chromium the browser suites share (each page in a context of its own): bun runs the test files
 * in one process, one after another, so the first suite launches it and the next ones take it over
 * instead of starting another. `releaseBrowser` when a suite is done with it: once no suite has taken it
 * for a moment (the next suite takes it sooner) it is closed; at the process's end playwright kills it.
 */
export async function takeBrowser(): Promise<Browser> {
  (globalThis as { odCloseBrowser?: () => Promise<void> }).odCloseBrowser = closeSharedBrowser;
  clearTimeout(shared?.closing);
  if (shared && !(await shared.browser.then((b) => b.isConnected()).catch(() => false))) shared = undefined;
  const taken = (shared ??= { browser: launchBrowser(), users: 0 });
  taken.users++;
  return taken.browser;
}

/** Closes the shared Chromium now, if there is one: test/preload.ts calls it once every file has run (at exit playwright only kills it, leaving its profile folder in the temp dir). */
export async function closeSharedBrowser() {
  const last = shared;
  shared = undefined;
  clearTimeout(last?.closing);
  await last?.browser.then((b) => b.close()).catch(() => {});
}

/** A suite is done with the shared Chromium (the pages it left open close with it, or with the process). */
export function releaseBrowser() {
  const last = shared;
  if (!last || --last.users > 0) return;
  last.closing = setTimeout(() => shared === last && closeSharedBrowser(), 2000);
  last.closing.unref();
}

export async function openPage(browser: Browser, url: string, width: keyof typeof WIDTHS = "desktop"): Promise<Page> {
  const page = await browser.newPage({ viewport: WIDTHS[width] });
  await page.goto(url);
  return page;
}

/** The page scrolls sideways: its document is wider than the viewport. */
export async function scrollsSideways(page: Page): Promise<boolean> {
  // Strings, not functions: they run in the page, and this project's TypeScript has no DOM types.
  return page.evaluate<boolean>("document.documentElement.scrollWidth > document.documentElement.clientWidth");
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/** axe-core's serious and critical violations on the page as it is now (WCAG 2 A and AA rules). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated, not added as a script tag: the page's Content-Security-Policy refuses inline scripts. Once per
  // document: a second check of the same page (another state, the dark theme) runs the axe it has.
  if (!(await page.evaluate<boolean>("typeof axe === 'object'"))) await page.evaluate(axeSource);
  const rules = JSON.stringify({ runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21aa"] } });
  const violations = await page.evaluate<AxeViolation[]>(`axe.run(document, ${rules}).then((r) => r.violations)`);
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}
