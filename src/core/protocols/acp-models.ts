import { arr, asRecord, type Rec, str } from "../parse-helpers.ts";

/** How to select a model over ACP, decided from what session/new advertised. */
export type ModelChoice =
  | { kind: "none" }
  | { kind: "invalid"; valid: string[] }
  | { kind: "set"; method: "session/set_config_option" | "session/set_model"; params: Record<string, string> };

/**
 * A requested model goes through the session's `model` config option when it
 * has one, else `session/set_model`. When the agent listed its models, a model
 * it does not offer is refused before anything is sent.
 */
export function acpModelStep(session: Rec, model: string | undefined): ModelChoice {
  if (!model) return { kind: "none" };
  const option = arr(session.configOptions)
    .map(asRecord)
    .find((o) => o && [o.category, o.id, o.name].some((v) => typeof v === "string" && v.toLowerCase() === "model"));
  if (option) {
    const valid = optionValues(option.options);
    if (valid.length && !valid.includes(model)) return { kind: "invalid", valid };
    return { kind: "set", method: "session/set_config_option", params: { configId: str(option.id) ?? "model", value: model } };
  }
  const valid = arr(asRecord(session.models)?.availableModels).flatMap((m) => str(asRecord(m)?.modelId) ?? []);
  if (valid.length && !valid.includes(model)) return { kind: "invalid", valid };
  return { kind: "set", method: "session/set_model", params: { modelId: model } };
}

/** Select options may be flat `{value}` entries or groups with their own `options`. */
function optionValues(options: unknown): string[] {
  return arr(options).flatMap((o) => {
    const r = asRecord(o);
    if (!r) return [];
    if (Array.isArray(r.options)) return optionValues(r.options);
    return str(r.value) ?? str(r.id) ?? [];
  });
}
