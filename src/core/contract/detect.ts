import { lazySchema } from "./lazy.ts";
import { z } from "./zod.ts";

/** A function field of a schema (zod checks only that it is one). */
export const fn = <T>(what: string) => z.custom<T>((v) => typeof v === "function", { message: `${what} must be a function` });

export type AuthState = "ok" | "missing" | "unknown";

/** How `od agents` and `od doctor` find out about a CLI without running it, where they can. */
export const DetectSchema = lazySchema(() =>
  z.object({
    /** The CLI's config folder, relative to HOME (e.g. ".claude"): a second sign it is really installed. */
    configDir: z.string().optional(),
    /** Older versions are reported as needing an upgrade. */
    minVersion: z
      .string()
      .regex(/^\d+(\.\d+)*$/)
      .optional(),
    /** Per-probe time limit, counted from the probe's start (probes queue for a core first; default 15 s). */
    timeoutMs: z.number().int().positive().optional(),
    /**
     * The npm package that installs `bin` (e.g. "@anthropic-ai/claude-code"): od reads the version from
     * its package.json, found through the bin's link or npm's shim, instead of running `--version`.
     */
    npmPackage: z.string().min(1).optional(),
    /**
     * Folders where the CLI keeps versions it updated itself to, outside its package (`<dir>/<version>`
     * or `<dir>/<platform>/<version>`; relative to HOME, or `{VAR:-fallback}/…`): one newer than the
     * package means the package's version is not the one that runs, and od asks `--version`.
     */
    updateDirs: z.array(z.string().min(1)).optional(),
    /**
     * Flags to look for in `--help`; the adapter uses them only when present (InvokeContext.flags).
     * `since` gives, per flag, the first version that has it (checked against the real CLI's `--help`):
     * with the version known, od reads the flags from it and runs no `--help`; a flag without one still needs the scan.
     * `seenIn`, for a flag whose first version is not known, a version whose `--help` lists it: from that
     * version on the flag is read from the version too; below it (where it may or may not be) `--help` tells.
     */
    help: z
      .object({
        args: z.array(z.string()).default(["--help"]),
        flags: z.array(z.string()).min(1),
        since: z.record(z.string(), z.string().regex(/^\d+(\.\d+)*$/)).default({}),
        seenIn: z.record(z.string(), z.string().regex(/^\d+(\.\d+)*$/)).default({}),
      })
      .optional(),
    auth: z
      .object({
        /** Any of these set in the environment means logged in, no probe needed; `NAME=value` only when it has that value. */
        envKeys: z.array(z.string()).default([]),
        /**
         * Files that show a login when present (relative to HOME, or `{VAR:-fallback}/…`), with `key` a
         * JSON file's field that must be set (`a.b.c` for a nested one): "ok" without running anything.
         * Their absence proves nothing (a keychain may hold the login): then `args` decides.
         */
        files: z.array(z.object({ path: z.string().min(1), key: z.string().min(1).optional() })).default([]),
        /**
         * The CLI keeps its login nowhere else (no keychain, no other store): when neither `envKeys` nor
         * `files` show one, it is "missing", and no command runs.
         */
        complete: z.boolean().default(false),
        /** A command whose output says whether the user is logged in. */
        args: z.array(z.string()).optional(),
        classify: fn<(output: string, exitCode: number | null) => AuthState>("detect.auth.classify").optional(),
      })
      .optional(),
    /** The CLI's own non-interactive model catalog. */
    models: z.object({ args: z.array(z.string()), parse: fn<(output: string) => string[]>("detect.models.parse") }).optional(),
  }),
);
