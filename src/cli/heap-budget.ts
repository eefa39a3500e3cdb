import { dlopen, FFIType, ptr } from "bun:ffi";

/** The RAM od serve tells the engine it has: enough for its small live heap (the events live in the run log). */
export const SERVE_HEAP_BUDGET = 128 * 1024 * 1024;

const VAR = "BUN_JSC_forceRAMSize";
/** Says the budget is od's own, not the user's: agents must not inherit it. */
const MARK = "OD_HEAP_BUDGET";

/** What execve reads through raw pointers, held where the collector cannot take it. */
const pinned: Uint8Array[] = [];

/**
 * JavaScriptCore paces its collector by the machine's RAM, so on a large
 * machine a long-running od serve lets garbage reach hundreds of MiB before it
 * collects (128 streaming runs on a 24 GiB machine: over 300 MiB, against a
 * live heap of 55–70). Bun reads its counterpart of Node's
 * --max-old-space-size, BUN_JSC_forceRAMSize, only when the runtime starts, and
 * a compiled binary cannot carry an environment variable, so this executes the
 * same binary again with it set: execve keeps the process and its pid, its
 * arguments, descriptors and the rest of the environment. On that second
 * start the engine has read the budget, so it is taken out of the environment
 * again: the agents od starts keep the environment the user gave it. Nothing
 * happens when the user set the variable (their value wins), from source, on
 * Windows, or if execve fails: the server then starts with the engine's defaults.
 */
export function execWithHeapBudget(bytes: number, env: Record<string, string | undefined> = process.env): void {
  if (env[MARK] !== undefined) {
    delete env[MARK];
    delete env[VAR];
    return;
  }
  if (env[VAR] !== undefined || process.platform === "win32" || !Bun.main.startsWith("/$bunfs/")) return;
  try {
    const libc = dlopen(process.platform === "darwin" ? "libSystem.B.dylib" : "libc.so.6", {
      execve: { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
    });
    const table = (items: string[]) => {
      const pointers = new BigUint64Array(items.length + 1); // NULL-terminated
      items.forEach((s, i) => {
        const c = Buffer.from(`${s}\0`);
        pinned.push(c);
        pointers[i] = BigInt(ptr(c));
      });
      pinned.push(new Uint8Array(pointers.buffer));
      return pointers;
    };
    const path = Buffer.from(`${process.execPath}\0`);
    pinned.push(path);
    const argv = table([process.execPath, ...process.argv.slice(2)]);
    const envp = table(
      Object.entries({ ...env, [VAR]: String(bytes), [MARK]: "1" }).flatMap(([k, v]) => (v === undefined ? [] : [`${k}=${v}`])),
    );
    libc.symbols.execve(ptr(path), ptr(argv), ptr(envp)); // returns only on failure
    libc.close();
    pinned.length = 0;
  } catch {}
}
