import type { z as Zod } from "zod";

/**
 * zod, read on first use. Evaluating its module costs a compiled od's start ~28 ms of CPU (more
 * than a Bun hello-world's whole start), and most starts build no schema at all: `od agents`, a
 * dry run, `od --help` (schemas are built when first used: lazy.ts). Every module of od, and the
 * plugin API, takes `z` from here, never from "zod": one static import of it brings the cost back
 * (test/startup-closure.test.ts holds that).
 *
 * The value is zod's own `z`: each member is read from it, the first read loads it. The namespace
 * beside it names zod's types for annotations (`z.infer<typeof X>`); one not named here is
 * `import type { z } from "zod"` away.
 */
let zod: typeof Zod | undefined;
const load = (): typeof Zod => {
  zod ??= (require("./zod-module.ts") as typeof import("./zod-module.ts")).z;
  return zod;
};

export const z: typeof Zod = new Proxy({} as typeof Zod, {
  get: (_, key) => Reflect.get(load(), key),
  has: (_, key) => Reflect.has(load(), key),
});

export declare namespace z {
  type infer<T> = Zod.infer<T>;
  type input<T> = Zod.input<T>;
  type output<T> = Zod.output<T>;
  type ZodType<O = unknown, I = unknown> = Zod.ZodType<O, I>;
  type ZodTypeAny = Zod.ZodTypeAny;
  type ZodRawShape = Zod.ZodRawShape;
  type ZodObject<S extends Zod.ZodRawShape = Zod.ZodRawShape> = Zod.ZodObject<S>;
  type ZodError<T = unknown> = Zod.ZodError<T>;
}
