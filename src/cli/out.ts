import { OdError } from "../core/contract/errors.ts";
import { isTerminal } from "../core/os/terminal.ts";

/**
 * stdout and stderr for a command's output, without Node's streams until one is needed: the first
 * touch of process.stdout or process.stderr builds Node's stream for it (so does node:tty), ~30 ms
 * of CPU in a compiled od, a Bun hello-world's whole start. `Bun.write` to Bun's own file for the
 * descriptor costs what `console.log` does and, unlike it, says when a write failed: a reader gone
 * (`od agents | head`) ends the output quietly, anything else (a full disk) is od's error on stdout
 * (STORAGE, exit 74), never output lost with exit 0. Whether the output is a terminal is asked of
 * the C library (terminal.ts), not of the stream.
 */
export interface Out {
  readonly isTTY?: boolean;
  write(text: string): Promise<void>;
}

function native(name: "stdout" | "stderr", file: () => Bun.BunFile, fd: number): Out {
  return {
    get isTTY() {
      return isTerminal(fd);
    },
    async write(text: string) {
      try {
        await Bun.write(file(), text);
      } catch (err) {
        failed(name, err);
      }
    },
  };
}

/** A write that failed: quietly nothing for a reader gone (EPIPE) or on stderr (no one left to tell), else od's error. */
function failed(name: "stdout" | "stderr", err: unknown): void {
  if ((err as NodeJS.ErrnoException).code === "EPIPE" || name === "stderr") return;
  throw new OdError(
    "STORAGE",
    `Could not write to ${name}: ${(err as Error).message}`,
    "Check where od's output goes (a full disk, a closed file).",
  );
}

/**
 * The same for output that streams while od works (`od run`'s events), through Bun's FileSink of the
 * descriptor: a write to a pipe its reader is slow to empty waits without blocking the event loop
 * (`Bun.write` blocks it there: no timer, signal or agent output is handled meanwhile), and costs
 * about half the CPU of Node's `process.stdout.write`. Its promise settles once the text is out.
 */
export function streaming(name: "stdout" | "stderr"): Out {
  let sink: Bun.FileSink | undefined;
  let gone = false;
  return {
    async write(text: string) {
      if (gone) return; // a sink that failed once rejects every write after: said once, or not at all
      try {
        sink ??= (name === "stdout" ? Bun.stdout : Bun.stderr).writer();
        await sink.write(text); // a number, or (once it failed) a rejected promise
        await sink.flush();
      } catch (err) {
        gone = true;
        failed(name, err);
      }
    },
  };
}

export const stdout: Out = native("stdout", () => Bun.stdout, 1);
export const stderr: Out = native("stderr", () => Bun.stderr, 2);
