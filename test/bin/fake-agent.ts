#!/usr/bin/env bun
/**
 * A fake agent CLI for end-to-end tests. Whatever name it is installed under
 * (claude, pi, ...), it follows the script in $FAKE_SCRIPT: a JSON array of steps.
 *
 *   {"stdout": <json>}         print one JSON line       {"raw": "text"}        print text as is
 *   {"replay": "<file>"}       print a fixture's lines    {"stderr": "text"}     write to stderr
 *   {"read": "line"|"all"}     read one stdin line / all of stdin (recorded)
 *   {"sleep": ms}              wait                       {"hang": true}         wait forever
 *   {"until": "name"}          wait until a file of that name is in the working directory (a test says when to go on)
 *   {"spawn": ["cmd", ...]}    start a grandchild in our process group (its pid goes to $FAKE_RECORD.pids)
 *   {"setsid": ["cmd", ...], "hold": "stderr"|"stdout"|"both"}   start one that leaves our group (its own
 *                              session, as a daemon would), holding our stderr/stdout if asked (pid to .pids)
 *   {"bigLine": bytes}         print one line of that many bytes, in chunks; "newline": false leaves it unterminated
 *   {"ignore": "SIGINT"}       ignore a signal           {"exit": code}         exit now
 *   {"ifStdin": "text", "then": [...], "else": [...]}   branch on what was read from stdin so far
 *   {"touch": "name"}          create a file in the working directory (an agent that writes)
 *   {"sh": "command"}          run a shell command and wait (an agent that ignores its flags and writes with the
 *                              shell); its exit status and stderr are recorded in `sh`
 *   {"firstTime": "marker", "then": [...], "else": [...]}   "then" on the first run only (the marker file remembers)
 *   {"kill": "SIGKILL"}        kill ourselves with a signal
 *
 * With $FAKE_RECORD set, argv, cwd, our pid and what was read from stdin are written there as JSON, and
 * `files`: the content of every file an argument or a variable ending in _PATH names as it starts (config
 * od writes for the run and removes after it, such as Claude's --mcp-config), `modes` their permission
 * bits and their folder's, with `env` those variables.
 */
import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

type Step = Record<string, unknown>;
const steps: Step[] = process.env.FAKE_SCRIPT ? JSON.parse(readFileSync(process.env.FAKE_SCRIPT, "utf8")) : [];
const pathVars = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => k.endsWith("_PATH") && v?.startsWith("/")));
const record = {
  argv: process.argv.slice(2),
  cwd: process.cwd(),
  pid: process.pid,
  env: pathVars,
  ...readNamedFiles([...process.argv.slice(2), ...Object.values(pathVars)]),
  stdin: [] as string[],
  sh: [] as Array<{ command: string; code: number | null; stderr: string }>,
};
const save = () => process.env.FAKE_RECORD && writeFileSync(process.env.FAKE_RECORD, JSON.stringify(record));
const out = (text: string) => process.stdout.write(text);

const reader = Bun.stdin.stream().getReader();
const decoder = new TextDecoder();
let buffered = "";
async function readLine(): Promise<string | undefined> {
  while (!buffered.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) return buffered ? takeAll() : undefined;
    buffered += decoder.decode(value, { stream: true });
  }
  const i = buffered.indexOf("\n");
  const line = buffered.slice(0, i);
  buffered = buffered.slice(i + 1);
  return line;
}
function takeAll(): string {
  const all = buffered;
  buffered = "";
  return all;
}

save();
await runSteps(steps);
process.exit(0);

async function runSteps(list: Step[]): Promise<void> {
  for (const step of list) await runStep(step);
}

async function runStep(step: Step): Promise<void> {
  if ("stdout" in step) await write(`${JSON.stringify(step.stdout)}\n`);
  else if ("raw" in step) await write(String(step.raw));
  else if ("replay" in step) await write(readFileSync(String(step.replay), "utf8"));
  else if ("stderr" in step) process.stderr.write(String(step.stderr));
  else if ("read" in step) {
    if (step.read === "all") {
      let all = "";
      for (let line = await readLine(); line !== undefined; line = await readLine()) all += `${line}\n`;
      record.stdin.push(all.endsWith("\n") ? all.slice(0, -1) : all);
    } else {
      const line = await readLine();
      if (line !== undefined) record.stdin.push(line);
    }
    save();
  } else if ("sleep" in step) await Bun.sleep(Number(step.sleep));
  else if ("until" in step) while (!existsSync(String(step.until))) await Bun.sleep(20);
  else if ("hang" in step) await new Promise(() => setInterval(() => {}, 1 << 30));
  else if ("spawn" in step) {
    const child = Bun.spawn(step.spawn as string[], { stdio: ["ignore", "ignore", "ignore"] });
    child.unref();
    if (process.env.FAKE_RECORD) appendFileSync(`${process.env.FAKE_RECORD}.pids`, `${child.pid}\n`);
  } else if ("setsid" in step) {
    const hold = (stream: string) => (step.hold === stream || step.hold === "both" ? "inherit" : "ignore");
    const child = Bun.spawn(step.setsid as string[], { stdio: ["ignore", hold("stdout"), hold("stderr")], detached: true });
    child.unref();
    if (process.env.FAKE_RECORD) appendFileSync(`${process.env.FAKE_RECORD}.pids`, `${child.pid}\n`);
  } else if ("bigLine" in step) {
    const chunk = "x".repeat(1 << 20);
    for (let left = Number(step.bigLine); left > 0; left -= chunk.length) await write(left >= chunk.length ? chunk : chunk.slice(0, left));
    if (step.newline !== false) await write("\n");
  } else if ("ignore" in step) process.on(String(step.ignore) as NodeJS.Signals, () => {});
  else if ("exit" in step) process.exit(Number(step.exit));
  else if ("kill" in step) process.kill(process.pid, String(step.kill) as NodeJS.Signals);
  else if ("firstTime" in step) {
    const marker = String(step.firstTime);
    const first = !existsSync(marker);
    if (first) writeFileSync(marker, "");
    await runSteps(((first ? step.then : step.else) ?? []) as Step[]);
  } else if ("touch" in step) writeFileSync(String(step.touch), "written by the fake agent\n");
  else if ("sh" in step) {
    const run = Bun.spawnSync(["sh", "-c", String(step.sh)], { stdin: "ignore", stdout: "ignore", stderr: "pipe" });
    record.sh.push({ command: String(step.sh), code: run.exitCode, stderr: run.stderr.toString() });
    save();
  } else if ("ifStdin" in step)
    await runSteps(((record.stdin.join("\n").includes(String(step.ifStdin)) ? step.then : step.else) ?? []) as Step[]);
}

/** Writes and waits for the pipe to drain, so large outputs keep their order and back-pressure. */
function write(text: string): Promise<void> {
  return new Promise((resolve) => (out(text) ? resolve() : process.stdout.once("drain", () => resolve())));
}

/** The content of each small regular file these absolute paths name, and its mode and its folder's (other arguments are skipped). */
function readNamedFiles(paths: Array<string | undefined>): { files: Record<string, string>; modes: Record<string, string> } {
  const files: Record<string, string> = {};
  const modes: Record<string, string> = {};
  const mode = (p: string) => (statSync(p).mode & 0o777).toString(8);
  for (const p of paths)
    try {
      if (!p?.startsWith("/") || !statSync(p).isFile() || statSync(p).size >= 65_536) continue;
      files[p] = readFileSync(p, "utf8");
      modes[p] = mode(p);
      modes[dirname(p)] = mode(dirname(p));
    } catch {}
  return { files, modes };
}
