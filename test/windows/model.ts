/**
 * A small model of how Windows reads a command line, for tests on any host:
 * the modern MSVC CRT's argv split, and cmd.exe's two passes over a `/c` line
 * (percent expansion, then carets and quotes). The unit tests use it to prove
 * round trips with Windows paths on Linux; the Wine lane checks the real thing.
 *
 * Not modelled: line feeds (cmd.exe is widely reported to end a line at one,
 * which Wine does not reproduce and this lane cannot verify, so `cmdPass`
 * refuses them), and delayed `!VAR!` expansion, off under `/d /s /c` unless the
 * registry turns it on.
 */

type Env = Record<string, string | undefined>;

/** argv as the modern MSVC CRT (UCRT) splits `line`, argv[0] by its own no-escape rule. */
export function crtSplit(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  if (line.startsWith('"')) {
    const end = line.indexOf('"', 1);
    out.push(line.slice(1, end === -1 ? undefined : end));
    i = end === -1 ? line.length : end + 1;
  } else {
    while (i < line.length && line[i] !== " " && line[i] !== "\t") i++;
    out.push(line.slice(0, i));
  }
  for (;;) {
    while (line[i] === " " || line[i] === "\t") i++;
    if (i >= line.length) return out;
    let arg = "";
    let quoted = false;
    while (i < line.length) {
      const c = line[i]!;
      if (c === "\\") {
        let n = 0;
        while (line[i] === "\\") n++, i++;
        if (line[i] === '"') {
          arg += "\\".repeat(n >> 1);
          if (n & 1) (arg += '"'), i++;
        } else arg += "\\".repeat(n);
      } else if (c === '"') {
        if (quoted && line[i + 1] === '"')
          (arg += '"'), (i += 2); // "" inside quotes: one literal quote, still quoted
        else (quoted = !quoted), i++;
      } else if (!quoted && (c === " " || c === "\t")) break;
      else (arg += c), i++;
    }
    out.push(arg);
  }
}

/** cmd.exe's percent pass: `%NAME%` of a defined variable expands (case-insensitively); anything else stays. */
export function percentPass(line: string, env: Env): string {
  let out = "";
  for (let i = 0; i < line.length; ) {
    const end = line[i] === "%" ? line.indexOf("%", i + 1) : -1;
    const name = end > i + 1 ? line.slice(i + 1, end) : "";
    const value = name ? lookup(env, name) : undefined;
    if (value !== undefined) (out += value), (i = end + 1);
    else (out += line[i]), i++;
  }
  return out;
}

/** cmd.exe's special-character pass: quotes toggle, a caret outside quotes escapes the next character. */
export function cmdPass(line: string): string {
  let out = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (c === "\n" || c === "\r") throw new Error("cmd.exe ends the line at a line feed");
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === "^") {
      out += line[++i] ?? "";
      continue;
    } else if (!quoted && "&|<>()".includes(c)) throw new Error(`cmd.exe would act on an unquoted ${c}`);
    out += c;
  }
  return out;
}

/**
 * What a CRT program receives when od starts `<ComSpec> /d /s /c "<inner>"`
 * on a shim whose body is `"<program>" %*`: `/s` strips the outer quotes, cmd.exe
 * runs both passes, the batch line substitutes `%*` (not expanded again) and
 * runs the special-character pass, and the CRT splits the result.
 */
export function throughShim(commandLine: string, env: Env = {}): string[] {
  const marker = " /d /s /c ";
  const at = commandLine.indexOf(marker);
  if (at < 0) throw new Error("not a shim command line");
  const rest = commandLine.slice(at + marker.length);
  if (!rest.startsWith('"') || !rest.endsWith('"')) throw new Error("/s expects the command in quotes");
  const line = cmdPass(percentPass(rest.slice(1, -1), env));
  const args = line.startsWith('"') ? line.slice(line.indexOf('"', 1) + 1) : line.slice(line.search(/\s|$/));
  return crtSplit(cmdPass(`"C:\\probe.exe" ${args.trimStart()}`)).slice(1);
}

function lookup(env: Env, name: string): string | undefined {
  const upper = name.toUpperCase();
  for (const [key, value] of Object.entries(env)) if (key.toUpperCase() === upper) return value;
  return undefined;
}
