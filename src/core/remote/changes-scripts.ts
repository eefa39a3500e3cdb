import { DIFF } from "../workspace/git.ts";
import { shQuote } from "./script.ts";

/**
 * The target's side of run.result's files and diff: small `sh` scripts, every value single-quoted,
 * git run as od runs it here (workspace/git.ts): no fsmonitor, no hook, no filter driver the
 * repository's config names (an agent may have written that config), names never patterns.
 */

/** `cd` to the working directory (none: the login directory), and git's safe options in "$@". */
function prologue(cwd: string): string[] {
  return [
    ...(cwd ? [`cd ${shQuote(cwd)} || exit 3`] : []),
    "set -- -c core.fsmonitor=false -c core.hooksPath=/dev/null/no-hooks -c core.splitIndex=false --literal-pathspecs",
    // Each configured filter driver switched off: git would run its clean command to compare a changed file.
    "keys=$(git config --name-only --get-regexp '^filter[.]' 2>/dev/null)",
    "while IFS= read -r k; do",
    '  case $k in *=*) echo "od: a filter driver named with =" >&2; exit 4 ;;',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, the driver's name
    '  filter.*.clean | filter.*.process) set -- "$@" -c "$k=" -c "${k%.*}.required=false" ;; esac',
    "done <<EOF",
    "$keys",
    "EOF",
  ];
}

const STATUS = 'git "$@" --no-optional-locks status --porcelain -z --untracked-files=all -- . || exit 6';
export const END = "od-end";

/**
 * Before the agent: "nogit" outside a work tree; else "git", a marker file made now (its time is
 * the picture's), the folder's path in the repository, and git's status of the folder.
 */
export function beforeScript(cwd: string): string {
  return [
    ...prologue(cwd),
    `[ "$(git "$@" rev-parse --is-inside-work-tree 2>/dev/null)" = true ] || { printf 'nogit\\0${END}\\0'; exit 0; }`,
    'p=$(git "$@" rev-parse --show-prefix) || exit 6',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, the target's temp folder
    'm=$(mktemp "${TMPDIR:-/tmp}/od-changes.XXXXXX") || exit 5',
    `printf 'git\\0%s\\0%s\\0' "$m" "$p"`,
    STATUS,
    `printf '\\0${END}\\0'`,
  ].join("\n");
}

/** After the agent: git's status again, then every file written since the marker (as `find` sees them), the marker removed. */
export function afterScript(cwd: string, marker: string): string {
  return [
    `m=${shQuote(marker)}`,
    `trap 'rm -f "$m"' EXIT`,
    ...prologue(cwd),
    '[ -f "$m" ] || exit 5',
    STATUS,
    "printf '\\0'",
    `find . \\( -name .git -o -name node_modules \\) -prune -o -type f -newer "$m" -print0`,
    `printf '\\0${END}\\0'`,
  ].join("\n");
}

/** Removes a marker when no agent started (nothing to compare). */
export function disposeScript(marker: string): string {
  return `rm -f ${shQuote(marker)}`;
}

/**
 * The diff of `files` (relative to the working directory) against a private copy of the index, the
 * `untracked` ones added with `git add -N` there first, the copy removed however the script ends:
 * the target's index, and its `git status`, are as they were.
 */
export function diffScript(cwd: string, files: string[], untracked: string[]): string {
  const names = (list: string[]) => list.map(shQuote).join(" ");
  return [
    ...prologue(cwd),
    'i=$(git "$@" rev-parse --git-path index) || exit 6',
    "s=$(mktemp -d) || exit 5",
    `trap 'rm -rf "$s"' EXIT`,
    'if [ -f "$i" ]; then cp "$i" "$s/index" || exit 5; fi',
    "GIT_INDEX_FILE=$s/index; export GIT_INDEX_FILE",
    ...(untracked.length ? [`git "$@" add --intent-to-add -- ${names(untracked)} >/dev/null 2>&1`] : []),
    `git "$@" ${DIFF.join(" ")} --find-renames -- ${names(files)}`,
  ].join("\n");
}

/** git's `status --porcelain -z` fields as path → status; a rename's or copy's source is listed too. */
export function parseStatus(fields: string[], prefix: string): Map<string, string> {
  const out = new Map<string, string>();
  for (let n = 0; n < fields.length; n++) {
    const entry = fields[n]!;
    const code = entry.slice(0, 2);
    out.set(relative(entry.slice(3), prefix), code);
    if (/[RC]/.test(code) && n + 1 < fields.length) out.set(relative(fields[++n]!, prefix), `${code}<`);
  }
  return out;
}

/** A path from the repository's top relative to the working directory (git status limited to it). */
function relative(path: string, prefix: string): string {
  return prefix && path.startsWith(prefix) ? path.slice(prefix.length) : path;
}
