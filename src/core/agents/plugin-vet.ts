import type { Verdict } from "./plugin-messages.ts";
import { startPluginThread } from "./plugin-thread.ts";

/**
 * Imports a plugin in a thread of its own first (plugin-worker.ts), so that one which calls
 * `process.exit`, throws, or never finishes loading (a promise that never settles, a loop that
 * never ends) is found there and blamed, and never reaches od's thread. Resolves to why the
 * plugin is refused, or undefined when it loaded cleanly within `ms`.
 * `budgetMs` is the whole loading budget, for the message.
 */
export function vetPlugin(path: string, ms: number, budgetMs = ms): Promise<string | undefined> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = startPluginThread();
    } catch (err) {
      return resolve(`could not be checked in a thread of its own: ${(err as Error).message}`);
    }
    let settled = false;
    const settle = (refusal: string | undefined) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.terminate();
      resolve(refusal);
    };
    const timer = setTimeout(() => settle(late(budgetMs)), Math.max(0, ms));
    worker.addEventListener("message", (e: MessageEvent<Verdict>) => settle(refusal(e.data)));
    worker.addEventListener("error", (e) => settle(`could not be checked in a thread of its own: ${e.message}`));
    worker.addEventListener("close", (e) => settle(exited((e as CloseEvent).code)));
    worker.postMessage({ kind: "vet", path });
  });
}

function refusal(v: Verdict): string | undefined {
  if ("ok" in v) return undefined;
  if ("exited" in v) return exited(v.exited);
  return v.error;
}

function exited(code: number): string {
  return `called process.exit(${code}) while loading (a plugin must never end od)`;
}

export function late(budgetMs: number): string {
  return `did not finish loading within ${budgetMs} ms (a top-level await or a factory that never settles, or a loop that never ends?)`;
}
