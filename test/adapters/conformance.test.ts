import { builtinIds } from "../../plugins/index.gen.ts";
import { loadRegistry } from "../../src/core/registry.ts";
import { type Expectations, runAdapterSuite } from "./conformance.ts";

/** Per-adapter facts the suite checks against: the read-only flags each CLI really has (see its --help). */
const EXPECTATIONS: Record<string, Expectations> = {
  claude: { readOnly: ["--permission-mode", "plan", "--disallowedTools"] },
  pi: { readOnly: ["--tools", "read,grep,find,ls"] },
};

const registry = await loadRegistry([]);
for (const entry of registry.list()) runAdapterSuite(entry, EXPECTATIONS[entry.adapter.id], builtinIds);
