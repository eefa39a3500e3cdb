import { basename, dirname, join, resolve } from "node:path";

/**
 * Where the running od came from, for `od --version` and `od doctor`:
 * - npm: the binary sits in a platform package (`@od-cli/linux-x64`) whose package.json names
 *   the package people install (`odLauncher`); that one is found nested above it (a global
 *   install: `<launcher>/node_modules/@od-cli/linux-x64`) or beside it (hoisted);
 * - source: a clone's build (`dist/od` under the clone's package.json), or the sources run by bun;
 * - binary: any other copy of the executable.
 */
/** The npm package people install od from (scripts/release/targets.ts publishes it; the name `od` is a date library's). */
export const NPM_PACKAGE = "@od-cli/od";

export interface Install {
  kind: "npm" | "source" | "binary";
  /** npm: the installed package (the launcher's name, else the platform package's). */
  package?: string;
  /** npm: that package's folder; source: the clone; binary: the executable. */
  path: string;
}

interface PackageJson {
  name?: unknown;
  version?: unknown;
  odLauncher?: unknown;
  bin?: unknown;
}

export function readPackage(dir: string): PackageJson | undefined {
  try {
    const data = JSON.parse(readText(join(dir, "package.json")));
    return data && typeof data === "object" ? data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A small file's text, read without node:fs where Bun can map it: `od --version` reads one or two
 * package.json files, and importing node:fs cost a compiled od about 9 ms of CPU, a third of that
 * command's start (a compiled probe: 33 against 23 ms, 31 runs; `Bun.mmap` adds nothing measurable).
 * Windows has no `Bun.mmap`: node:fs there.
 */
function readText(path: string): string {
  if (process.platform === "win32") return (require("node:fs") as typeof import("node:fs")).readFileSync(path, "utf8");
  return new TextDecoder().decode(Bun.mmap(path, { shared: false }));
}

/** A compiled od (its entry in Bun's embedded file system: `/$bunfs/…`, `B:\~BUN\…` on Windows), not `bun src/main.ts`. */
export function isCompiled(main: string = Bun.main): boolean {
  return main.startsWith("/$bunfs/") || /^[A-Za-z]:[\\/]~BUN[\\/]/.test(main);
}

/** Whether `pkg` is od's own package.json in a clone (what `npm install` builds dist/od from). */
export function isClone(pkg: PackageJson | undefined): boolean {
  return pkg?.name === "od" && (pkg.bin as Record<string, unknown> | undefined)?.od === "dist/od";
}

export function describeInstall(execPath: string = process.execPath, compiled: boolean = isCompiled()): Install {
  if (!compiled) return { kind: "source", path: resolve(import.meta.dir, "../../..") };
  const dir = dirname(execPath);
  const own = readPackage(dir);
  if (typeof own?.odLauncher === "string" && typeof own.name === "string") {
    const launcher = own.odLauncher;
    const scopeDir = dirname(dir); // node_modules/@od-cli
    const nested = dirname(dirname(scopeDir)); // <launcher>/node_modules/@od-cli/<platform>
    if (basename(dirname(scopeDir)) === "node_modules" && readPackage(nested)?.name === launcher)
      return { kind: "npm", package: launcher, path: nested };
    const hoisted = join(dirname(scopeDir), launcher);
    if (readPackage(hoisted)?.name === launcher) return { kind: "npm", package: launcher, path: hoisted };
    return { kind: "npm", package: own.name, path: dir };
  }
  if (basename(dir) === "dist" && isClone(readPackage(dirname(dir)))) return { kind: "source", path: dirname(dir) };
  return { kind: "binary", path: execPath };
}

/** `npm: @od-cli/od, /usr/lib/node_modules/@od-cli/od`, `from source: /work/od`, `binary: /opt/od`. */
export function installLabel(install: Install): string {
  if (install.kind === "npm") return `npm: ${install.package}, ${install.path}`;
  return `${install.kind === "source" ? "from source" : "binary"}: ${install.path}`;
}
