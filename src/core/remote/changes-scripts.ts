import { DIFF, type GitTree, GUARD_CONFIG, GUARD_ENV } from "../workspace/git.ts";
import { shQuote } from "./script.ts";

/**
 * The target's side of run.result's files and diff: small `sh` scripts, every value single-quoted,
 * git run by the rules od's own git follows here (workspace/git.ts): the git dir and work tree found
 * before the agent ran (whatever `.git` it wrote since), no `GIT_*` of the login's environment, no
 * system or global config, no hook, no fsmonitor, no filter driver the config names, names never patterns.
 */

/** `cd` to the working directory (none: the login directory), the guard's environment, and git's options in "$@". */
function prologue(cwd: string, repo?: GitTree): string[] {
  const where = repo ? [`--git-dir=${repo.gitDir}`, `--work-tree=${repo.workTree ?? ""}`] : [];
  const options = ["--no-optional-locks", "--literal-pathspecs", ...where, ...GUARD_CONFIG.flatMap((c) => ["-c", c])];
  return [
    ...(cwd ? [`cd ${shQuote(cwd)} || exit 3`] : []),
    "for v in $(env | sed -n 's/^\\(GIT_[A-Za-z0-9_]*\\)=.*/\\1/p'); do unset \"$v\"; done",
    `export ${Object.entries(GUARD_ENV)
      .map(([k, v]) => `${k}=${shQuote(v)}`)
      .join(" ")}`,
    `set -- ${options.map(shQuote).join(" ")}`,
    // Each configured filter driver switched off: git would run its clean command to compare a changed file.
    "keys=$(git \"$@\" config --name-only --get-regexp '^filter[.]' 2>/dev/null)",
    "while IFS= read -r k; do",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell expansions, the driver's name
    "  n=${k#filter.}; n=${n%.*}",
    '  case $n in *=*) echo "od: a filter driver named with =" >&2; exit 4 ;; esac',
    '  [ -n "$k" ] && set -- "$@" -c "filter.$n.clean=" -c "filter.$n.smudge=" -c "filter.$n.process=" -c "filter.$n.required=false"',
    "done <<EOF",
    "$keys",
    "EOF",
  ];
}

const STATUS = 'git "$@" status --porcelain -z --untracked-files=all -- . || exit 6';
export const END = "od-end";

/**
 * Before the agent: "nogit" outside a work tree; else "repo", a marker file made now (its time is
 * the picture's), the folder's path in the repository, the repository's git dir and top (what the
 * later scripts use, whatever the agent writes), and git's status of the folder.
 */
export function beforeScript(cwd: string): string {
  return [
    ...prologue(cwd),
    `[ "$(git "$@" rev-parse --is-inside-work-tree 2>/dev/null)" = true ] || { printf 'nogit\\0${END}\\0'; exit 0; }`,
    'p=$(git "$@" rev-parse --show-prefix) || exit 6',
    'g=$(git "$@" rev-parse --absolute-git-dir) || exit 6',
    'w=$(git "$@" rev-parse --show-toplevel) || exit 6',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, the target's temp folder
    'm=$(mktemp "${TMPDIR:-/tmp}/od-changes.XXXXXX") || exit 5',
    `printf 'repo\\0%s\\0%s\\0%s\\0%s\\0' "$m" "$p" "$g" "$w"`,
    STATUS,
    `printf '\\0${END}\\0'`,
  ].join("\n");
}

/** After the agent: git's status again, then every file written since the marker (as `find` sees them), the marker removed. */
export function afterScript(cwd: string, repo: GitTree, marker: string): string {
  return [
    `m=${shQuote(marker)}`,
    `trap 'rm -f "$m"' EXIT`,
    ...prologue(cwd, repo),
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
export function diffScript(cwd: string, repo: GitTree, files: string[], untracked: string[]): string {
  const names = (list: string[]) => list.map(shQuote).join(" ");
  return [
    ...prologue(cwd, repo),
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
