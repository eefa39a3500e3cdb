/**
 * Windows command-line quoting, as pure functions over strings. Lengths are in
 * UTF-16 code units (JavaScript's `length`), the unit CreateProcess and cmd.exe
 * count in. Every target is assumed to split its command line with the modern
 * MSVC CRT rules (Node, Rust, Go, Python and every Bun-compiled CLI do).
 */

/**
 * One argument of a direct CreateProcess command line, exactly as libuv's
 * `quote_cmd_arg` writes it (what Bun.spawn and Node do on Windows): the empty
 * string becomes `""`; a token without space, tab or `"` is kept; otherwise it
 * is wrapped in quotes, a `"` becomes `\"`, and a run of backslashes before a
 * quote (or before the closing quote) is doubled.
 */
export function quoteExeArg(arg: string): string {
  if (arg === "") return '""';
  if (!/[ \t"]/.test(arg)) return arg;
  if (!/["\\]/.test(arg)) return `"${arg}"`;
  return wrap(arg, (slashes) => `${"\\".repeat(2 * slashes + 1)}"`);
}

/** Characters that make cmd.exe (or the batch line a shim forwards `%*` into) act on a token. */
const CMD_SPECIAL = /[\s"&<>|^%()]/;

/**
 * One argument of the line cmd.exe runs for a `.cmd`/`.bat` shim
 * (`cmd.exe /d /s /c "<inner>"`). A token with whitespace or any of
 * `" & < > | ^ % ( )` is wrapped in quotes, so cmd.exe, and the batch line that
 * re-reads it through `%*`, sees every special character inside a quoted span:
 *
 * - `"` becomes `""`: it keeps cmd.exe's quote state in step, and the CRT reads
 *   `""` inside quotes as one literal quote;
 * - `%` becomes `"^%"`: the quote closes, the caret escapes the percent, the
 *   quote reopens, so `%VAR%` can never expand (the text between two percents
 *   always contains a quote, which no variable name has);
 * - a run of backslashes right before a quote that this quoting adds (the
 *   closing one, a doubled `""`, or the `"` of `"^%"`) is doubled, so the CRT
 *   gives the backslashes back as written: `C:\My Dir\` arrives as `C:\My Dir\`.
 *   (The seeds left these runs single, and the CRT then ate the quote or a
 *   backslash.)
 *
 * The empty string becomes `""` (an empty argument), not nothing.
 */
export function quoteCmdArg(arg: string): string {
  if (arg === "") return '""';
  if (!CMD_SPECIAL.test(arg)) return arg;
  return wrap(
    arg,
    (slashes) => `${"\\".repeat(2 * slashes)}""`,
    (slashes) => `${"\\".repeat(2 * slashes)}"^%"`,
  );
}

/**
 * Wraps `arg` in quotes, walking it once and counting the backslashes that run
 * up to each character: `quote(n)` and `percent(n)` render a `"` or a `%` that
 * follows `n` backslashes (without `percent`, a `%` is plain); any other
 * character keeps its backslashes as they are; the closing quote doubles the
 * trailing run.
 */
function wrap(arg: string, quote: (slashes: number) => string, percent?: (slashes: number) => string): string {
  let out = '"';
  let slashes = 0;
  for (const ch of arg) {
    if (ch === "\\") {
      slashes++;
      continue;
    }
    if (ch === '"') out += quote(slashes);
    else if (ch === "%" && percent) out += percent(slashes);
    else out += "\\".repeat(slashes) + ch;
    slashes = 0;
  }
  return `${out}${"\\".repeat(2 * slashes)}"`;
}
