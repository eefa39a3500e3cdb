/**
 * Which optional flags an installed CLI has (an adapter's `detect.help`), told by
 * its version where the adapter's table says since when each flag exists (`since`),
 * or in which version's `--help` it was seen (`seenIn`: that version and later
 * ones have it), and by its `--help` only where the table cannot tell (a flag
 * without an entry, a version below `seenIn`, or a version that is unknown or
 * not a version).
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
  const flags: string[] = [];
  for (const f of help.flags) {
    const since = help.since?.[f];
    const seen = help.seenIn?.[f];
    if (since !== undefined) {
      if (compareVersions(v, since) >= 0) flags.push(f);
    } else if (seen !== undefined && compareVersions(v, seen) >= 0) flags.push(f);
    else return undefined; // never seen, or below the version it was seen in: it may or may not be there
  }
  return flags;
}

/** Whether a version alone can ever tell this adapter's flags (every flag has a `since` or a `seenIn`). */
export function versionTellsFlags(adapter: Adapter): boolean {
  const help = adapter.detect.help;
  return Boolean(help?.flags.every((f) => help.since?.[f] !== undefined || help.seenIn?.[f] !== undefined));
}

/** The flags that `--help`'s output shows: a flag as a word of its own (`--fast`, `--fast=…`, `-f, --fast`), not a prefix of another. */
export function flagsFromHelp(adapter: Adapter, output: string): string[] {
  const flags = adapter.detect.help?.flags ?? [];
  return flags.filter((f) => new RegExp(`(^|[\\s,])${escapeRegExp(f)}(?=[\\s,=[<]|$)`, "m").test(output));
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
