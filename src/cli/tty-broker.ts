import { createReadStream } from "node:fs";
import type { Broker } from "../core/run/permissions.ts";

/**
 * Asks on the terminal: the question goes to stderr, the answer is one line
 * read from `input` (the TTY). Anything but y/yes is a denial.
 */
export function lineBroker(input: () => AsyncIterable<Uint8Array | string>, out: { write(s: string): unknown }): Broker {
  return async (ask, signal) => {
    const what = ask.kind === "edit" ? "edit" : ask.kind === "execute" ? "run" : ask.kind === "read" ? "read" : "do";
    out.write(
      `\n? ${ask.tool}: the agent wants to ${what}${ask.paths?.length ? ` ${ask.paths.join(", ")}` : ""}${ask.detail ? `\n  ${ask.detail}` : ""}\n  allow? [y/N] `,
    );
    let line = "";
    const decoder = new TextDecoder();
    for await (const chunk of input()) {
      if (signal.aborted) return undefined;
      line += typeof chunk === "string" ? chunk : decoder.decode(chunk);
      if (line.includes("\n")) break;
    }
    return /^\s*y(es)?\s*$/i.test(line.split("\n")[0] ?? "") ? "allow" : "deny";
  };
}

/** The broker `od run --ask` uses: the controlling terminal, even when the prompt came from stdin; the question goes to `out` (stderr). */
export function ttyBroker(out: { write(s: string): unknown } = process.stderr): Broker {
  return lineBroker(() => createReadStream("/dev/tty"), out);
}
