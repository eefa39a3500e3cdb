import { OdError } from "../core/contract/errors.ts";

/**
 * stdout and stderr for a command's output, without Node's streams until one is needed: the first
 * touch of process.stdout or process.stderr builds Node's stream for it (so does node:tty), ~30 ms
 * of CPU in a compiled od, a Bun hello-world's whole start. `Bun.write` to Bun's own file for the
 * descriptor costs what `console.log` does and, unlike it, says when a write failed: a reader gone
 * (`od agents | head`) ends the output quietly, anything else (a full disk) is od's error on stdout
 * (STORAGE, exit 74), never output lost with exit 0. Whether the output is a terminal is the one
 * question that needs the stream, and builds it when asked.
 */
export interface Out {
  readonly isTTY?: boolean;
  write(text: string): Promise<void>;
}

function native(name: "stdout" | "stderr", file: () => Bun.BunFile, stream: () => NodeJS.WriteStream): Out {
  return {
    get isTTY() {
      return stream().isTTY;
    },
    async write(text: string) {
      try {
        await Bun.write(file(), text);
      } catch (err) {
        // stderr has no one left to tell.
        if ((err as NodeJS.ErrnoException).code === "EPIPE" || name === "stderr") return;
        throw new OdError(
          "STORAGE",
          `Could not write to ${name}: ${(err as Error).message}`,
          "Check where od's output goes (a full disk, a closed file).",
        );
      }
    },
  };
}

export const stdout: Out = native(
  "stdout",
  () => Bun.stdout,
  () => process.stdout,
);
export const stderr: Out = native(
  "stderr",
  () => Bun.stderr,
  () => process.stderr,
);
