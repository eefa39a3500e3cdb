// The race test's swapper, a Worker: flips the folder `d` of a project between a real folder and a
// symlink that leads out, as fast as it can, until told to stop; every flip is counted in shared
// memory so the test knows which tool calls had a flip happen while they ran.
//
// "exchange": `d` (a real folder) and `d.link` (a symlink to ../outside) trade places atomically
// (renameat2 RENAME_EXCHANGE), so `d` is always there. "relink": the symlink `d` points at the real
// folder `d.real`, then out, a fresh link renamed over it each time.
import { dlopen, FFIType as T } from "bun:ffi";
import { renameSync, symlinkSync } from "node:fs";
import { join } from "node:path";

export type SwapKind = "exchange" | "relink";
export interface SwapOrder {
  root: string;
  kind: SwapKind;
  /** Each state is held a random 0..holdMs, so a check and a use can see different ones. */
  holdMs: number;
  /** [flips, stop]: the swapper adds to flips; the test sets stop. */
  shared: SharedArrayBuffer;
}

declare const self: Worker;

const AT_FDCWD = -100;
const RENAME_EXCHANGE = 2;

function flipper(root: string, kind: SwapKind): () => void {
  if (kind === "relink") {
    let out = false;
    return () => {
      out = !out;
      symlinkSync(out ? "../outside" : "d.real", join(root, "d.tmp"));
      renameSync(join(root, "d.tmp"), join(root, "d"));
    };
  }
  const { symbols: libc } = dlopen("libc.so.6", { renameat2: { args: [T.i32, T.ptr, T.i32, T.ptr, T.u32], returns: T.i32 } });
  const [d, link] = [Buffer.from(`${join(root, "d")}\0`), Buffer.from(`${join(root, "d.link")}\0`)];
  return () => {
    if (libc.renameat2(AT_FDCWD, d, AT_FDCWD, link, RENAME_EXCHANGE) !== 0) throw new Error("renameat2 failed");
  };
}

self.onmessage = ({ data }: MessageEvent<SwapOrder>) => {
  const counters = new Int32Array(data.shared);
  const flip = flipper(data.root, data.kind);
  while (Atomics.load(counters, 1) === 0) {
    flip();
    Atomics.add(counters, 0, 1);
    const until = performance.now() + Math.random() * data.holdMs;
    while (performance.now() < until);
  }
  self.postMessage("stopped");
};
