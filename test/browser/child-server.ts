/**
 * `od serve` in a process of its own (serve-child.ts), for the browser suites that kill it outright
 * (SIGKILL: no shutdown, no run.finished) and start another on the same port and OD_HOME.
 */
import { createServer } from "node:net";
import { join } from "node:path";
import type { PageSettings } from "../../src/server/ui.ts";

/**
 * What the child server tells its pages, by default: check on it every 250 ms when idle (od serve's
 * pages: every 5 s), and say it is gone once a run's stream has been down 1 s (od serve's: 4 s), so
 * that a test does not wait that long for a page to notice a server it killed.
 */
export const QUICK_PAGE: PageSettings = { healthMs: 250, goneMs: 1000 };

/** A port nobody listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.on("error", reject);
  });
}

/** The child server on `port`; resolves once it listens, with its URL and token (a fixed one when `token` is given). */
export async function spawnServer(env: Record<string, string>, port: number, token = "", page = QUICK_PAGE) {
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "serve-child.ts")], {
    env: { ...env, OD_TEST_PORT: String(port), OD_TEST_TOKEN: token, OD_TEST_PAGE: JSON.stringify(page) },
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = (child.stdout as ReadableStream<Uint8Array>).getReader();
  const line = new TextDecoder().decode((await reader.read()).value);
  return { child, ...(JSON.parse(line) as { url: string; token: string }) };
}

/** Kills the child server outright and waits until it is gone. */
export async function killServer(child: ReturnType<typeof Bun.spawn>) {
  child.kill("SIGKILL");
  await child.exited;
}
