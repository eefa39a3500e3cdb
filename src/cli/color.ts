/**
 * Where od decides colour, for everything it prints: its own lines (errors, a run's progress),
 * the logger's, and citty's --help. Colour is for a terminal: a pipe or a file gets plain text.
 */

/** The escape sequences that set colours and styles (SGR), as citty and consola write them. */
const SGR = /\x1b\[[0-9;]*m/g;

/**
 * Whether what goes to `stream` gets colour: FORCE_COLOR says yes (unless "0" or "false"),
 * NO_COLOR (any value but empty) or TERM=dumb says no, and otherwise only a terminal does.
 */
export function colorFor(stream: { isTTY?: boolean }, env: Record<string, string | undefined> = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force !== "false";
  if (env.NO_COLOR || env.TERM === "dumb") return false;
  return Boolean(stream.isTTY);
}

export function stripAnsi(text: string): string {
  return text.replace(SGR, "");
}

/** `stream`, with every colour code taken out of what is written to it: for a writer that decides colour by another stream. */
export function plain<S extends { write(text: string): unknown }>(stream: S): S {
  return Object.assign(Object.create(stream) as S, { write: (text: unknown) => stream.write(stripAnsi(String(text))) });
}
