import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir as osTmp } from "node:os";
import { join, resolve } from "node:path";
import type { OdEvent, OdEventBody } from "../src/core/contract/events.ts";
import { groupMembers } from "../src/core/os/process-group.ts";

export const ROOT = resolve(import.meta.dir, "..");
export const FAKE_AGENT = join(ROOT, "test/bin/fake-agent.ts");
export const FAKE_ACP = join(ROOT, "test/bin/fake-acp.ts");
export const FIXTURES = join(ROOT, "test/fixtures");
export const DIST_OD = join(ROOT, "dist/od");

/** A temporary directory removed at the end of the scope: `await using tmp = tmpdir()`. */
export function tmpdir(prefix = "od-test-") {
  const path = mkdtempSync(join(osTmp(), prefix));
  return { path, [Symbol.asyncDispose]: async () => rmSync(path, { recursive: true, force: true }) };
}

export type FakeStep = Record<string, unknown>;

/**
 * Installs the fake agent under `name` in `<dir>/bin`, following `script`.
 * Returns the environment that puts it on PATH and where it records what it saw.
 */
export function installFake(dir: string, name: string, script: unknown, program = FAKE_AGENT) {
  const bin = join(dir, "bin");
  mkdirSync(bin, { recursive: true });
  const exe = join(bin, name);
  const scriptPath = join(dir, `${name}.script.json`);
  writeFileSync(scriptPath, JSON.stringify(script));
  const recordPath = join(dir, `${name}.record.json`);
  // Each fake carries its own script, so several can share one PATH.
  writeFileSync(exe, `#!/bin/sh\nFAKE_SCRIPT="${scriptPath}" FAKE_RECORD="${recordPath}" exec "${process.execPath}" "${program}" "$@"\n`);
  chmodSync(exe, 0o755);
  const env: Record<string, string> = {
    PATH: `${bin}:/usr/bin:/bin`,
    HOME: dir,
    OD_HOME: join(dir, ".od"),
    FAKE_SCRIPT: scriptPath,
    FAKE_RECORD: recordPath,
    // The fake's own files (its script, what it records) are in `dir`: the kernel sandbox lets it write there in
    // every mode. Tests of the sandbox itself keep the places it must not write out of `dir`.
    OD_SANDBOX_ALLOW: dir,
  };
  return {
    exe,
    env,
    recorded: () => JSON.parse(readFileSync(recordPath, "utf8")) as { argv: string[]; cwd: string; stdin: string[] },
    pids: () => {
      try {
        return readFileSync(`${recordPath}.pids`, "utf8").trim().split("\n").filter(Boolean).map(Number);
      } catch {
        return [];
      }
    },
  };
}

export async function collect<E extends OdEventBody = OdEvent>(events: AsyncIterable<E>): Promise<E[]> {
  const out: E[] = [];
  for await (const e of events) out.push(e);
  return out;
}

export function ofType<E extends OdEventBody, T extends E["type"]>(events: E[], type: T): Extract<E, { type: T }>[] {
  return events.filter((e): e is Extract<E, { type: T }> => e.type === type);
}

export function finished(events: OdEvent[]) {
  const all = ofType(events, "run.finished");
  if (all.length !== 1) throw new Error(`expected exactly one run.finished, got ${all.length}`);
  if (events.at(-1)?.type !== "run.finished") throw new Error("run.finished is not the last event");
  return all[0]!;
}

/** True when a pid is alive and not a zombie. */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

export { groupMembers };
