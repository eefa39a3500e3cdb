import { readFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { openLibc } from "../libc.ts";

/**
 * The sandbox helper (helper.c, built as `dist/od-sandbox` and embedded in the compiled od) made
 * runnable without a file anyone else can change: its bytes in a sealed memfd that only this od
 * holds, run as `/proc/<od's pid>/fd/<n>`. An agent allowed to write everywhere (full mode) cannot
 * swap it for a helper that restricts nothing before a later read-only run.
 */

/** What this machine's kernel can do, as the helper found it. */
export interface HelperFacts {
  /** The path to exec the helper by. */
  path: string;
  /** Landlock's ABI version; 0 when the kernel has none (or it is switched off). */
  landlock: number;
  /** Whether a read-only path inside a writable folder can be held (a private mount namespace). */
  protect: boolean;
}

/** Why there is no helper: said by `od doctor`, the run header and `--sandbox require`. */
export type HelperState = { ok: true; facts: HelperFacts } | { ok: false; reason: string };

const MFD_CLOEXEC = 1;
const MFD_ALLOW_SEALING = 2;
const F_ADD_SEALS = 1033;
const SEALS = 1 | 2 | 4 | 8; // F_SEAL_SEAL, F_SEAL_SHRINK, F_SEAL_GROW, F_SEAL_WRITE

let cached: HelperState | undefined;
let placed: { path: string } | { reason: string } | undefined;

/** The helper and the kernel's facts, found once per od process (about 2 ms: one probe run). */
export function sandboxHelper(): HelperState {
  cached ??= find();
  return cached;
}

/**
 * The helper's exec path, without asking the kernel anything (the sentinel needs no Landlock),
 * or why there is none. Placed once per od process.
 */
export function helperPath(): { path: string } | { reason: string } {
  placed ??= place();
  return placed;
}

function place(): { path: string } | { reason: string } {
  if (process.platform !== "linux") return { reason: `${process.platform} has no Landlock` };
  const bytes = helperBytes();
  if (!bytes) return { reason: "this od was built without its sandbox helper (no C compiler at build time)" };
  const path = sealed(bytes);
  if (!path) return { reason: "the C library offers no memfd_create (needed to run the helper)" };
  return { path };
}

function find(): HelperState {
  const placedAt = helperPath();
  if ("reason" in placedAt) return { ok: false, reason: placedAt.reason };
  const { path } = placedAt;
  try {
    const probe = Bun.spawnSync([path, "--probe"], { stdin: "ignore", stdout: "pipe", stderr: "pipe", env: {} });
    const out = probe.stdout.toString();
    const landlock = Number(out.match(/landlock=(\d+)/)?.[1]);
    if (probe.exitCode !== 0 || !Number.isInteger(landlock))
      return { ok: false, reason: `the sandbox helper did not run: ${probe.stderr.toString().trim() || `exit ${probe.exitCode}`}` };
    return { ok: true, facts: { path, landlock, protect: /protect=1/.test(out) } };
  } catch (err) {
    return { ok: false, reason: `the sandbox helper did not run: ${(err as Error).message}` };
  }
}

/** The helper's bytes: embedded in a compiled od, else built beside the sources (`npm run build`). */
function helperBytes(): Uint8Array | undefined {
  const embedded = (Bun.embeddedFiles as Array<Blob & { name: string }>).find((f) => f.name.startsWith("od-sandbox"));
  try {
    if (embedded) return readFileSync(`/$bunfs/root/${embedded.name}`);
    return readFileSync(join(import.meta.dir, "../../../../dist/od-sandbox"));
  } catch {
    return undefined;
  }
}

/** The bytes in a sealed memfd kept open for this process's life; its exec path, or undefined when memfds are not to be had. */
function sealed(bytes: Uint8Array): string | undefined {
  const libc = openLibc({
    memfd_create: { args: ["cstring", "u32"], returns: "i32" },
    fcntl: { args: ["i32", "i32", "i32"], returns: "i32" },
  });
  if (!libc) return undefined;
  const fd = libc.memfd_create(Buffer.from("od-sandbox\0"), MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return undefined;
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
  if (libc.fcntl(fd, F_ADD_SEALS, SEALS) !== 0) return undefined;
  return `/proc/${process.pid}/fd/${fd}`;
}
