import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { Env } from "../contract/request.ts";

/** od's data directory: `$OD_HOME`, else `~/.open-design`. */
export function odHome(env: Env = process.env): string {
  return env.OD_HOME || join(env.HOME || homedir(), ".open-design");
}

/**
 * A path or URL path without its trailing slashes. By hand: a regular expression's first use in a
 * process compiles it, ~0.5 ms of a start (`od agents` and a dry run both ask this).
 */
export function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47) end--;
  return end === path.length ? path : path.slice(0, end);
}

/** Where community plugins are looked for, in load order (later ones win on id clashes). */
export function pluginDirs(env: Env = process.env): string[] {
  // The way out when a plugin hangs od as it loads (a loop at import cannot be interrupted).
  if (env.OD_NO_PLUGINS && env.OD_NO_PLUGINS !== "0") return [];
  const dirs = [join(odHome(env), "plugins")];
  if (env.OD_PLUGINS_DIR) dirs.push(env.OD_PLUGINS_DIR);
  // A compiled binary lives in a real folder; under `bun` this is bun's own folder and finds nothing.
  dirs.push(join(dirname(process.execPath), "plugins"));
  return [...new Set(dirs)];
}

/**
 * Where people's CLI installers put executables that a GUI-launched or service
 * process often lacks on PATH: ~/.local/bin, bun, npm's prefixes, volta, asdf,
 * cargo, Homebrew, /usr/local/bin, nvm and fnm node bins, pnpm. De-duplicated.
 */
export function userToolDirs(env: Env = process.env, platform: NodeJS.Platform = process.platform): string[] {
  const home = env.HOME || env.USERPROFILE || homedir();
  const dirs = [
    join(home, ".local", "bin"),
    join(home, ".bun", "bin"),
    join(home, ".npm-global", "bin"),
    ...[env.NPM_CONFIG_PREFIX, env.npm_config_prefix].filter(Boolean).map((p) => (platform === "win32" ? p! : join(p!, "bin"))),
    join(home, ".volta", "bin"),
    join(home, ".asdf", "shims"),
    join(home, ".cargo", "bin"),
    env.PNPM_HOME ?? "",
    env.NVM_BIN ?? "",
    ...nodeVersionBins(join(env.NVM_DIR || join(home, ".nvm"), "versions", "node")),
    env.FNM_MULTISHELL_PATH ? join(env.FNM_MULTISHELL_PATH, "bin") : "",
    join(home, ".local", "share", "fnm", "aliases", "default", "bin"),
    ...(platform === "win32"
      ? [join(env.APPDATA ?? join(home, "AppData", "Roaming"), "npm"), join(home, "scoop", "shims")]
      : ["/opt/homebrew/bin", "/usr/local/bin"]),
  ];
  return [...new Set(dirs.filter(Boolean))];
}

/** nvm's installed node versions, newest name last (so a later one is found after an earlier one). */
function nodeVersionBins(versions: string): string[] {
  if (!existsSync(versions)) return [];
  try {
    return readdirSync(versions)
      .sort()
      .map((v) => join(versions, v, "bin"));
  } catch {
    return [];
  }
}
