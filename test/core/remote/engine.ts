/** A stand-in for an engine's client in tests: records its argv, then runs its last argument (the script) with `sh -c` here. */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export function recordingEngine(bin: string, name = "ssh"): { calls: () => string[][] } {
  mkdirSync(bin, { recursive: true });
  const log = join(bin, `${name}.argv`);
  const script = [
    "#!/bin/sh",
    `printf '%s\\0' "$@" >> '${log}'`,
    `printf '\\036' >> '${log}'`,
    "for last; do :; done",
    'exec sh -c "$last"',
  ];
  writeFileSync(join(bin, name), `${script.join("\n")}\n`);
  chmodSync(join(bin, name), 0o755);
  return {
    calls: () =>
      existsSync(log)
        ? readFileSync(log, "utf8")
            .split("\x1e")
            .filter(Boolean)
            .map((l) => l.split("\0").slice(0, -1))
        : [],
  };
}

export function executable(bin: string, name: string, body: string): void {
  mkdirSync(bin, { recursive: true });
  writeFileSync(join(bin, name), `#!/bin/sh\n${body}\n`);
  chmodSync(join(bin, name), 0o755);
}
