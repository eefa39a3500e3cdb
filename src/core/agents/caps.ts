/**
 * Which optional flags an installed CLI has (an adapter's `detect.help`), told by
 * its version where the adapter's table says since when each flag exists, and
 * by its `--help` only where the table cannot tell (a flag without an entry, or
 * a version that is unknown or not a version).
 */
import type { Adapter } from "../contract/adapter.ts";
import { compareVersions } from "./version-on-disk.ts";

const DOTTED = /^\d+(\.\d+)+/;

/** The flags the version has, or undefined when the version cannot tell (then `--help` must). */
export function flagsFromVersion(adapter: Adapter, version: string | undefined): string[] | undefined {
  const help = adapter.detect.help;
  if (!help || !version) return undefined;
  const v = version.replace(/^v/, "").match(DOTTED)?.[0];
  if (!v) return undefined;
  const since = help.since ?? {};
  if (!help.flags.every((f) => since[f] !== undefined)) return undefined;
  return help.flags.filter((f) => compareVersions(v, since[f]!) >= 0);
}

/** Whether a version alone can ever tell this adapter's flags (every flag has a `since`). */
export function versionTellsFlags(adapter: Adapter): boolean {
  const help = adapter.detect.help;
  return Boolean(help?.flags.every((f) => help.since?.[f] !== undefined));
}

/** The flags that `--help`'s output shows: a flag as a word of its own (`--fast`, `--fast=…`, `-f, --fast`), not a prefix of another. */
export function flagsFromHelp(adapter: Adapter, output: string): string[] {
  const flags = adapter.detect.help?.flags ?? [];
  return flags.filter((f) => new RegExp(`(^|[\\s,])${escapeRegExp(f)}(?=[\\s,=[<]|$)`, "m").test(output));
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
