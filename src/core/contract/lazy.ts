/**
 * A zod schema built on first use instead of at import. Building zod schemas is most of what a
 * start of od did before it did anything (every contract module built its schemas when imported,
 * `od --version` aside): a run validates one request and one adapter, `od agents` no event at all.
 * The value stands for the schema itself (same type, same methods, `instanceof` and composition
 * in other schemas alike), and builds it the first time anything is asked of it.
 *
 * zod knows a schema by its object (its JSON Schema keeps what it has seen, and `.describe()` its
 * metadata, by it), and the wrapper is another object: a schema that is a part of another is given
 * as `built(X)`, the schema itself, never as the wrapper (a method call, `X.optional()`, is answered
 * by the schema itself already). A part with `.describe()` stays inside its builder.
 */
const BUILT = Symbol("built");

export function lazySchema<T extends object>(build: () => T): T {
  let schema: T | undefined;
  const real = (): T => {
    schema ??= build();
    return schema;
  };
  return new Proxy({} as T, {
    get: (_, key) => {
      const s = real();
      if (key === BUILT) return s;
      return Reflect.get(s, key, s);
    },
    set: (_, key, value) => Reflect.set(real(), key, value),
    has: (_, key) => Reflect.has(real(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}

/** The schema itself behind a lazy one (built now), for a part of another schema; any other schema as it is. */
export function built<T>(schema: T): T {
  return ((schema as { [BUILT]?: T })[BUILT] ?? schema) as T;
}

/** A value computed once, when first asked for (the shapes several lazy schemas share). */
export function once<T>(make: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value as T;
  };
}
