/**
 * A stand-in for OpenSSH's client in `bin`, for the server's target tests: it records its argv
 * (one JSON line per call in `<bin>/ssh.calls`) and runs its last argument — the command string
 * sshd would hand the login shell — with `sh -c` on this machine, its stdin the connection's.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export function fakeSsh(bin: string) {
  mkdirSync(bin, { recursive: true });
  const log = join(bin, "ssh.calls");
  const exe = join(bin, "ssh");
  const script = [
    "#!/bin/sh",
    // NUL-separated argv, each call ended by a record separator (no JSON encoder in sh).
    `printf '%s\\0' "$@" >> '${log}'`,
    `printf '\\036' >> '${log}'`,
    "for last; do :; done",
    'exec sh -c "$last"',
  ];
  writeFileSync(exe, `${script.join("\n")}\n`);
  chmodSync(exe, 0o755);
  return {
    /** Each call's argv, oldest first. */
    calls: (): string[][] =>
      existsSync(log)
        ? readFileSync(log, "utf8")
            .split("\x1e")
            .filter(Boolean)
            .map((c) => c.split("\0").slice(0, -1))
        : [],
  };
}
