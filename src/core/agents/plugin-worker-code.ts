/**
 * The plugin thread's code (plugin-worker.ts and what it imports), bundled into the binary as
 * text when od is compiled. Required only where that file is not on disk (the compiled binary):
 * from source, the worker starts from the file itself and this module (and its macro) never runs.
 */
import { bundled } from "../os/bundle-macro.ts" with { type: "macro" };

export const code: string = bundled("core/agents/plugin-worker.ts");
