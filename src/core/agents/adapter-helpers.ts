/**
 * Small helpers for writing an adapter's facts and its `invoke`, published in the plugin API: an
 * optional flag, and the version most CLIs print.
 */

/**
 * An optional flag with its value, to spread into argv: `[name, value]`, or nothing when the value
 * is absent (undefined or empty). `...flag("--model", ctx.model)` passes no model flag for the
 * default model; `...flag("--allowedTools", ctx.allowedTools?.join(","))` none for an empty list.
 */
export function flag(name: string, value: string | number | undefined): string[] {
  return value === undefined || value === "" ? [] : [name, String(value)];
}

/**
 * The version in a CLI's `--version` output ("codex-acp 2.6.0", "reasonix v1.38.11", "0.36.0
 * (commit 7c61e5bb)"): the first `1.2.3`, with what is glued to it (`1.2.3-beta.1`, `2026.5.1-1`);
 * undefined when there is none.
 */
export function parseVersion(output: string): string | undefined {
  return output.match(/\d+\.\d+\.\d+[\w.-]*/)?.[0];
}
