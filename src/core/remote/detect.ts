import { DEFAULT_PROBE_MS } from "../agents/detect.ts";
import { type Detection, PROBE_SLOW } from "../agents/detection.ts";
import { compareVersions } from "../agents/version-on-disk.ts";
import type { Adapter } from "../contract/adapter.ts";
import type { Env } from "../contract/request.ts";
import { stripTerminal } from "../os/probe.ts";
import { execOnTarget, targetError } from "./exec.ts";
import { shQuote } from "./script.ts";
import { formatTarget, type Target } from "./target.ts";

/** What the target said of one adapter: where its bin is, its config folder, its `--version` (exit code, output, too slow). */
export interface Found {
  path?: string;
  conf?: string;
  code?: string;
  out?: string;
  slow?: boolean;
}

/**
 * `run S FILE CMD…`: CMD with stdin closed, its output in FILE and its exit code in FILE.code, killed
 * after S seconds (FILE.slow then says so) by a watcher that ends with it. Portable to any POSIX sh:
 * no `timeout`, which busybox and coreutils spell differently.
 */
const RUN = [
  "run() {",
  '  s=$1; f=$2; shift 2; "$@" </dev/null >"$f" 2>&1 & c=$!',
  '  ( trap \'kill $w 2>/dev/null; exit 0\' TERM; sleep "$s" & w=$!; wait $w; : >"$f.slow"; kill -9 $c ) >/dev/null 2>&1 & k=$!',
  '  wait $c; echo $? >"$f.code"; kill $k 2>/dev/null',
  "}",
];

/**
 * One script for every adapter at once (one round trip): each bin looked up with `command -v` on the
 * target's PATH, each distinct `--version` run in parallel with a time limit, each config folder
 * checked under the target's HOME; the answers printed after `marker` lines, the last one `done`.
 */
export function detectScript(adapters: Adapter[], marker: string): string {
  const m = shQuote(marker);
  const lines = ["d=$(mktemp -d) || exit 125", `trap 'rm -rf "$d"' EXIT`, ...RUN];
  const probes = new Map<string, number>();
  const sources = adapters.map((a, i) => {
    const key = JSON.stringify([a.bin, a.version.args]);
    if (a.detect.configDir)
      lines.push(`[ -d "$HOME"/${shQuote(a.detect.configDir)} ] && printf '%s' "$HOME"/${shQuote(a.detect.configDir)} >"$d/${i}.conf"`);
    const first = probes.get(key);
    if (first !== undefined) return first; // gemini and gemini-acp: one `gemini --version`
    probes.set(key, i);
    const seconds = Math.ceil((a.detect.timeoutMs ?? DEFAULT_PROBE_MS) / 1000);
    const cmd = ['"$p"', ...a.version.args.map(shQuote)].join(" ");
    lines.push(`if p=$(command -v ${shQuote(a.bin)}); then printf '%s' "$p" >"$d/${i}.path"; run ${seconds} "$d/${i}" ${cmd} & fi`);
    return i;
  });
  lines.push(
    "wait",
    // o I S: adapter I's answers, from probe S's files (its own config folder).
    "o() {",
    "  for x in path code slow; do",
    `    [ -f "$d/$2.$x" ] && { printf '\\n%s %s %s\\n' ${m} "$1" "$x"; cat "$d/$2.$x"; }`,
    "  done",
    `  [ -f "$d/$1.conf" ] && { printf '\\n%s %s conf\\n' ${m} "$1"; cat "$d/$1.conf"; }`,
    `  [ -f "$d/$2" ] && { printf '\\n%s %s out\\n' ${m} "$1"; head -c 65536 "$d/$2"; }`,
    "}",
    ...sources.map((s, i) => `o ${i} ${s}`),
    `printf '\\n%s done\\n' ${m}`,
  );
  return lines.join("\n");
}

/** The script's answers by adapter index; undefined when it never printed `done` (it did not run to its end). */
export function parseDetect(stdout: string, marker: string): Map<number, Found> | undefined {
  const re = new RegExp(`\\n${marker} (\\d+|done)(?: (\\w+))?\\n`, "g");
  const found = new Map<number, Found>();
  const marks = [...`\n${stdout}`.matchAll(re)];
  if (marks.at(-1)?.[1] !== "done") return undefined;
  const text = `\n${stdout}`;
  marks.slice(0, -1).forEach((m, n) => {
    const value = text.slice(m.index + m[0].length, marks[n + 1]!.index);
    const f = found.get(Number(m[1])) ?? {};
    const field = m[2] as keyof Found;
    if (field === "slow") f.slow = true;
    else if (field === "path" || field === "conf" || field === "code" || field === "out")
      f[field] = field === "code" ? value.trim() : value;
    found.set(Number(m[1]), f);
  });
  return found;
}

/** Detection of every CLI adapter on a target, in one round trip. Auth is "unknown": the target's environment is its own. */
export async function detectOnTarget(adapters: Adapter[], target: Target, env: Env): Promise<Detection[]> {
  const clis = adapters.filter((a) => a.protocol.kind !== "loop");
  const marker = `od-probe-${crypto.randomUUID().slice(0, 8)}`;
  const slowest = Math.max(DEFAULT_PROBE_MS, ...clis.map((a) => a.detect.timeoutMs ?? 0));
  const timeoutMs = slowest + 15_000;
  const r = await execOnTarget(target, detectScript(clis, marker), { env, timeoutMs });
  const found = parseDetect(r.stdout.toString("utf8"), marker);
  if (!found) throw targetError(target, r, "detection", timeoutMs);
  return clis.map((a, i) => remoteDetection(a, target, found.get(i) ?? {}));
}

export function remoteDetection(adapter: Adapter, target: Target, f: Found): Detection {
  const where = formatTarget(target);
  const d: Detection = {
    id: adapter.id,
    name: adapter.name,
    status: "missing",
    installed: false,
    confident: false,
    ...(f.conf ? { configDir: f.conf } : {}),
    auth: "unknown",
    login: adapter.login,
    models: adapter.models,
    modelSource: adapter.models.length ? "aliases" : "none",
    efforts: adapter.efforts,
    problems: [],
  };
  const hint = `Install it on ${where}: ${adapter.install}`;
  if (!f.path) return { ...d, problems: [{ code: "AGENT_NOT_FOUND", message: `${adapter.bin} is not on the PATH of ${where}`, hint }] };
  Object.assign(d, { path: f.path, via: "path" });
  const command = `\`${[adapter.bin, ...adapter.version.args].join(" ")}\` on ${where}`;
  const output = stripTerminal(f.out ?? "").trim();
  if (f.slow) d.problems.push({ code: PROBE_SLOW, message: `${command} did not answer in time: it is there, its version unverified` });
  else if (f.code === "126" || f.code === "127")
    return { ...d, problems: [{ code: "AGENT_NOT_FOUND", message: `${command} cannot be started`, hint }] };
  else if (f.code !== "0") {
    const said = output.split("\n").at(-1)?.slice(0, 200);
    return {
      ...d,
      status: "broken",
      problems: [{ code: "AGENT_CRASHED", message: `${command} exited with ${f.code}${said ? `: ${said}` : ""}`, hint }],
    };
  } else {
    d.version = safe(() => adapter.version.parse?.(output)) ?? output.match(/\d+\.\d+(\.\d+)?[\w.+-]*/)?.[0] ?? output.split("\n")[0];
    d.versionFrom = "probe";
  }
  d.installed = true;
  d.confident = !adapter.detect.configDir || d.configDir !== undefined;
  const min = adapter.detect.minVersion;
  if (min && d.version && compareVersions(d.version, min) < 0) {
    d.status = "outdated";
    d.problems.push({ code: "AGENT_NOT_FOUND", message: `${adapter.name} ${d.version} on ${where} is older than ${min}`, hint });
  } else d.status = "ready";
  return d;
}

function safe<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}
