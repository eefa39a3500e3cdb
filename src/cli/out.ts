/**
 * stdout and stderr for a command's output, without Node's streams until one is needed: the first
 * touch of process.stdout or process.stderr builds Node's stream for it (so does node:tty), ~30 ms
 * of CPU in a compiled od, a Bun hello-world's whole start. console.log and console.error write
 * natively, a single string as it is, and add the newline; so a text ending in one goes through
 * them. A partial line (a progress line ending in "\r") and the question whether the output is a
 * terminal need the stream, and build it then.
 */
export interface Out {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

function native(stream: () => NodeJS.WriteStream, print: (line: string) => void): Out {
  return {
    get isTTY() {
      return stream().isTTY;
    },
    write: (text: string) => (text.endsWith("\n") ? print(text.slice(0, -1)) : stream().write(text)),
  };
}

export const stdout: Out = native(
  () => process.stdout,
  (line) => console.log(line),
);
export const stderr: Out = native(
  () => process.stderr,
  (line) => console.error(line),
);
