import { arr, asRecord, type Rec, str } from "./parse-helpers.ts";

/** How to select a model over ACP, decided from what session/new advertised. */
export type ModelChoice =
  | { kind: "none"; note?: string }
  | { kind: "invalid"; valid: string[] }
  | { kind: "set"; method: "session/set_config_option" | "session/set_model"; params: Record<string, string> };

/**
 * A requested model goes through the session's `model` config option when it
 * has one, else `session/set_model` when the session lists models; a model the
 * agent does not offer is refused before anything is sent. An agent that lists
 * no models gets no ACP model call (its adapter passes the model in argv).
 */
export function acpModelStep(session: Rec, model: string | undefined): ModelChoice {
  if (!model) return { kind: "none" };
  const option = configOption(session, "model");
  const listed = option ? optionValues(option.options) : modelList(session);
  if (!listed.length) {
    // Nothing advertised: the adapter passes the model on the CLI's command line where it can.
    if (!option) return { kind: "none", note: `${model} (the agent lists no models over ACP; set on its command line)` };
    return { kind: "set", method: "session/set_config_option", params: { configId: str(option.id) ?? "model", value: model } };
  }
  // Agents may list opaque ids ("$runtime|openai|x(openai)"): a model's display name selects it too.
  const match = listed.find((m) => m.id === model) ?? listed.find((m) => m.name === model);
  if (!match) return { kind: "invalid", valid: listed.map((m) => m.name ?? m.id) };
  if (option) return { kind: "set", method: "session/set_config_option", params: { configId: str(option.id) ?? "model", value: match.id } };
  return { kind: "set", method: "session/set_model", params: { modelId: match.id } };
}

/** A model (or mode) a session offers: the id it is selected by, and the name people see. */
export interface Listed {
  id: string;
  name?: string;
}

/**
 * The models a session/new answer offers, read as a run selects among them
 * (acpModelStep): the `model` config option's values, else `models.availableModels`.
 */
export function acpModels(session: Rec): Listed[] {
  const option = configOption(session, "model");
  return option ? optionValues(option.options) : modelList(session);
}

/** The session modes offered: the `mode` config option's values, else `modes.availableModes`. */
export function acpModes(session: Rec): Listed[] {
  const option = configOption(session, "mode");
  if (option) return optionValues(option.options);
  return arr(asRecord(session.modes)?.availableModes).flatMap((m) => {
    const r = asRecord(m);
    const id = str(r?.id);
    return id ? [{ id, name: str(r?.name) }] : [];
  });
}

/**
 * A config option by its id, else by its category or name (case-insensitive). The id comes first:
 * an agent may file another option under the same category (Cline's `provider` is category "model").
 */
function configOption(session: Rec, kind: string): Rec | undefined {
  const options = arr(session.configOptions).map(asRecord);
  const is = (v: unknown) => typeof v === "string" && v.toLowerCase() === kind;
  return options.find((o) => is(o?.id)) ?? options.find((o) => o && [o.category, o.name].some(is));
}

function modelList(session: Rec): Listed[] {
  return arr(asRecord(session.models)?.availableModels).flatMap((m) => {
    const r = asRecord(m);
    const id = str(r?.modelId);
    return id ? [{ id, name: str(r?.name) }] : [];
  });
}

/** Select options may be flat `{value, name}` entries or groups with their own `options`. */
function optionValues(options: unknown): Listed[] {
  return arr(options).flatMap((o) => {
    const r = asRecord(o);
    if (!r) return [];
    if (Array.isArray(r.options)) return optionValues(r.options);
    const id = str(r.value) ?? str(r.id);
    return id ? [{ id, name: str(r.name) }] : [];
  });
}
