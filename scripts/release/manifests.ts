/**
 * The package.json and README of each package `npm run release:pack` writes. Every version is
 * the root package.json's: the binary reports it (src/core/os/version.ts), the launcher pins
 * each platform package to it exactly, so an install never mixes two releases.
 */
import { LAUNCHER, packageName, TARGETS, type Target } from "./targets.ts";

export interface RootPackage {
  version: string;
  description?: string;
  license?: string;
  repository?: unknown;
  homepage?: string;
  bugs?: unknown;
  keywords?: string[];
}

/** What the root package says about the project, carried into every package. */
function common(root: RootPackage) {
  const { license, repository, homepage, bugs } = root;
  return Object.fromEntries(Object.entries({ license, repository, homepage, bugs }).filter(([, v]) => v !== undefined));
}

/** The package people install: the `od` command, and every platform package as an optional dependency. */
export function launcherManifest(root: RootPackage, targets: readonly Target[] = TARGETS) {
  return {
    name: LAUNCHER,
    version: root.version,
    description: root.description,
    keywords: root.keywords ?? ["agents", "coding-agent", "cli", "claude-code", "codex", "gemini-cli", "acp", "mcp"],
    ...common(root),
    bin: { od: "bin/od.js" },
    files: ["bin/od.js"],
    // The launcher uses nothing newer than Node 18; od itself needs no Node at all.
    engines: { node: ">=18" },
    optionalDependencies: Object.fromEntries(targets.map((t) => [packageName(t), root.version])),
  };
}

/** One platform's package: its binary only; npm installs it only where `os`, `cpu` (and `libc`) match. */
export function platformManifest(root: RootPackage, t: Target, binary: string) {
  return {
    name: packageName(t),
    version: root.version,
    description: `The od binary for ${t.label}. Install ${LAUNCHER} instead: it picks this package for you.`,
    ...common(root),
    os: [t.os],
    cpu: [t.cpu],
    ...(t.libc ? { libc: [t.libc] } : {}),
    files: [binary],
    preferUnplugged: true,
    // How the binary knows it was installed from npm, and by which package (od --version, od doctor).
    odLauncher: LAUNCHER,
  };
}

export function platformReadme(t: Target, version: string): string {
  return [
    `# ${packageName(t)}`,
    "",
    `od ${version} for ${t.label}: one self-contained binary, nothing else.`,
    "",
    `Do not install this package yourself: \`npm install -g ${LAUNCHER}\` installs the one for your`,
    "platform and gives you the `od` command.",
    "",
  ].join("\n");
}
