import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { builtinIds } from "../../plugins/index.gen.ts";
import { loadRegistry } from "../../src/builtins.ts";
import { FIXTURES } from "../helpers.ts";
import { type Expectations, runAdapterSuite } from "./conformance.ts";

/**
 * Per-adapter facts the suite checks against live next to its fixtures, in
 * test/fixtures/<id>/expectations.json: the read-only flags its CLI really has (see its --help).
 */
function expectationsFor(id: string): Expectations | undefined {
  const path = join(FIXTURES, id, "expectations.json");
  return existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as Expectations) : undefined;
}

const registry = await loadRegistry([]);
for (const entry of registry.list()) runAdapterSuite(entry, expectationsFor(entry.adapter.id), builtinIds);
