#!/usr/bin/env node

/*
 * The `od` command of od's npm package. od is one compiled binary per platform; npm installs
 * the one for this machine as an optional dependency (@od-cli/<os>-<cpu>[-musl], chosen by the
 * `os`, `cpu` and `libc` fields of those packages), and this script runs it: same arguments, same
 * stdin, stdout and stderr, signals passed on, its exit status passed back. Nothing is downloaded.
 */
const { spawn } = require("node:child_process");
const { existsSync, readFileSync } = require("node:fs");
const { constants } = require("node:os");
const { dirname, join } = require("node:path");
const launcher = require("../package.json");

const SCOPE = launcher.name.slice(0, launcher.name.indexOf("/") + 1);
const PLATFORMS = Object.keys(launcher.optionalDependencies || {});

/** Whether this Linux runs on musl (Alpine) rather than glibc: what its `ldd` is, else Node's own report. */
function isMusl() {
  try {
    return readFileSync("/usr/bin/ldd", "latin1").includes("musl");
  } catch {
    const header = process.report?.getReport?.().header;
    return !header?.glibcVersionRuntime;
  }
}

/** The platform packages to look for, best first: on Linux this C library's, then the other's. */
function candidates() {
  const base = `${SCOPE}${process.platform}-${process.arch}`;
  const names = process.platform !== "linux" ? [base] : isMusl() ? [`${base}-musl`, base] : [base, `${base}-musl`];
  return names.filter((name) => PLATFORMS.includes(name));
}

function findBinary() {
  const names = candidates();
  for (const name of names) {
    let dir;
    try {
      dir = dirname(require.resolve(`${name}/package.json`));
    } catch {
      continue;
    }
    const file = join(dir, process.platform === "win32" ? "od.exe" : "od");
    if (!existsSync(file)) continue;
    const { version } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    if (version !== launcher.version)
      process.stderr.write(
        `od: ${name} is ${version}, ${launcher.name} is ${launcher.version}; reinstall: npm install -g ${launcher.name}\n`,
      );
    return file;
  }
  if (names.length)
    process.stderr.write(
      `od: ${names[0]}, the package with od's binary for this platform, is not installed.\n` +
        `  npm installs it with ${launcher.name}, as an optional dependency: not with --omit=optional (or --no-optional),\n` +
        "  and not when node_modules was copied from another platform.\n" +
        `  Reinstall: npm install -g ${launcher.name}@${launcher.version}\n`,
    );
  else
    process.stderr.write(
      `od: ${launcher.name} ${launcher.version} has no binary for ${process.platform} ${process.arch}.\n` +
        `  There are binaries for: ${PLATFORMS.map((n) => n.slice(SCOPE.length)).join(", ")}.\n`,
    );
  process.exit(1);
}

/** Whether this process has a controlling terminal, and is in its foreground group (Linux: /proc; elsewhere: stdio is one). */
function terminal() {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    const [, , pgrp, , tty, tpgid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { controlling: tty !== "0", foreground: Number(tpgid) > 0 && tpgid === pgrp };
  } catch {
    const tty = Boolean(process.stdin.isTTY || process.stdout.isTTY || process.stderr.isTTY);
    return { controlling: tty, foreground: tty };
  }
}

const file = findBinary();
const args = process.argv.slice(2);

// Node 22.15+ (not on Windows): become od, one process that receives every signal and exits itself.
if (process.platform !== "win32" && typeof process.execve === "function") {
  // Node ignores SIGPIPE and SIGXFSZ, and an ignored signal stays ignored across exec; a handled one is reset.
  for (const signal of ["SIGPIPE", "SIGXFSZ"]) process.on(signal, () => {});
  process.execve(file, [file, ...args], process.env);
}

const child = spawn(file, args, { stdio: "inherit" });
child.on("error", (err) => {
  process.stderr.write(`od: cannot start ${file}: ${err.message}\n`);
  process.exit(1);
});

// od shares this process group, so what the terminal sends to the group (Ctrl-C, Ctrl-\ in the
// foreground; a hangup to every job) reaches od already: a second copy would mean "stop now" to
// od. Everything else (kill <pid>, a supervisor's SIGTERM) reached only this process: pass it on.
// On Windows the console gives Ctrl-C to od too, and child.kill would end it at once: keep quiet.
const atStart = terminal();
const reachedOd = {
  SIGINT: () => terminal().foreground,
  SIGQUIT: () => terminal().foreground,
  SIGHUP: () => atStart.controlling || terminal().controlling,
  SIGTERM: () => false,
};
for (const [signal, already] of Object.entries(reachedOd)) {
  try {
    process.on(signal, () => {
      if (process.platform === "win32" || already()) return;
      try {
        child.kill(signal);
      } catch {}
    });
  } catch {} // a signal this platform cannot listen for
}

child.on("exit", (code, signal) => {
  if (!signal) process.exit(code ?? 1);
  // Ended by a signal: end the same way, so a shell sees what ended od (128 + n if that is ignored here).
  process.removeAllListeners(signal);
  process.exitCode = 128 + (constants.signals[signal] ?? 0);
  try {
    process.kill(process.pid, signal);
  } catch {}
});
