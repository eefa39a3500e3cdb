import { Mode } from "./events.ts";
import { built, lazySchema } from "./lazy.ts";
import { McpServers } from "./mcp.ts";
import { z } from "./zod.ts";

/** An environment as od reads and hands it down: the shape of `process.env`. */
export type Env = Record<string, string | undefined>;

/**
 * A value od hands a CLI as a flag's argument (a model, a session id, a role, a tool). One that
 * starts with "-" is refused: many CLIs' parsers read it as a flag of its own (`--model --yolo`),
 * which would give the agent more authority than the mode asked for.
 */
export const FlagValue = lazySchema(() =>
  z
    .string()
    .min(1)
    .refine((v) => !v.startsWith("-"), "must not start with '-' (a CLI would read it as a flag of its own)"),
);

/** What a caller asks for: the same object from `od run`, `POST /api/runs`, parallel runs and the library (built on first use, lazy.ts). */
export const RunRequest = lazySchema(() =>
  z.object({
    agent: z.string().min(1),
    prompt: z.string().refine((p) => p.trim().length > 0, "the prompt is empty"),
    cwd: z.string().min(1).optional(),
    mode: Mode.default("edit"),
    model: FlagValue.optional(),
    effort: FlagValue.optional(),
    resume: FlagValue.optional(),
    timeoutMs: z.number().int().positive().optional(),
    /** Skills by name (`od skills` lists them). */
    skills: z.array(z.string().min(1)).default([]),
    /** Tools the agent may use without asking (passed to CLIs that take such a list). */
    allowedTools: z.array(built(FlagValue)).default([]),
    /** A cap on the agent's turns (passed to CLIs that take one). */
    maxTurns: z.number().int().positive().optional(),
    /** A role defined with `od init` for this agent. */
    role: FlagValue.optional(),
    /** Image files to send with the prompt, for agents that accept images natively. */
    images: z.array(z.string().min(1)).default([]),
    /**
     * MCP servers the agent gets for this run, in ACP's shapes (contract/mcp.ts), for adapters whose
     * capabilities take them; any other run goes on without them and says which were not given.
     */
    mcpServers: z.lazy(() => built(McpServers)).default([]), // built only for a request that has some
    /** Where the agent runs: this machine (unset), or `ssh://…`, `docker://…`, `podman://…`, `kubectl://…` (core/remote). */
    on: z.string().min(1).optional(),
  }),
);
export type RunRequest = z.input<typeof RunRequest>;
/** A request after validation: defaults filled, `cwd` absolute, `model: "default"` dropped. */
export type ValidRequest = z.output<typeof RunRequest> & { cwd: string };

/** An image to send with the prompt, read and checked (run/images.ts). */
export interface ImageInput {
  path: string;
  mimeType: string;
  /** Base64 of the file's bytes. */
  data: string;
}
