import { describe, expect, test } from "bun:test";
import { z } from "zod";
import { built, lazySchema, once } from "../../../src/core/contract/lazy.ts";

describe("a schema built on first use", () => {
  test("nothing is built until the schema is used, then once", () => {
    let built = 0;
    const Point = lazySchema(() => {
      built++;
      return z.object({ x: z.number(), y: z.number().default(0) });
    });
    expect(built).toBe(0);
    expect(Point.parse({ x: 1 })).toEqual({ x: 1, y: 0 });
    expect(Point.safeParse({ x: "1" }).success).toBe(false);
    expect(built).toBe(1);
  });

  test("it is the schema: instanceof, its methods, inside other schemas, its JSON Schema with the parts' descriptions", () => {
    const Name = lazySchema(() => z.string().min(1));
    const Person = lazySchema(() => z.object({ name: Name, age: z.number().describe("in years").optional() }));
    expect(Name instanceof z.ZodString).toBe(true);
    expect(Person instanceof z.ZodObject).toBe(true);
    const People = z.array(Person).max(2);
    expect(People.parse([{ name: "a" }])).toEqual([{ name: "a" }]);
    expect(People.safeParse([{ name: "" }]).success).toBe(false);
    expect(Person.optional().parse(undefined)).toBeUndefined();
    expect(z.prettifyError(Person.safeParse({ name: 1 }).error!)).toContain("name");
    const Either = z.discriminatedUnion("kind", [
      lazySchema(() => z.object({ kind: z.literal("a"), a: z.string() })),
      lazySchema(() => z.object({ kind: z.literal("b"), b: z.number() })),
    ]);
    expect(Either.parse({ kind: "b", b: 2 })).toEqual({ kind: "b", b: 2 });
    expect(Either.safeParse({ kind: "a", b: 2 }).success).toBe(false);
    expect(z.toJSONSchema(Person)).toEqual(
      z.toJSONSchema(z.object({ name: z.string().min(1), age: z.number().describe("in years").optional() })),
    );
  });

  test("a part of another schema is given as built(X): the schema itself, which zod's JSON Schema knows by its object", () => {
    const stdio = () => z.object({ type: z.literal("stdio").optional(), name: z.string() }).transform(({ type: _t, ...s }) => s);
    const Stdio = lazySchema(stdio);
    expect(built(Stdio)).toBe(built(Stdio));
    expect(built(Stdio) instanceof z.ZodPipe).toBe(true);
    const plain = z.string();
    expect(built(plain)).toBe(plain);
    const Servers = z.array(built(Stdio));
    expect(Servers.parse([{ type: "stdio", name: "a" }])).toEqual([{ name: "a" }]);
    expect(z.toJSONSchema(Servers, { io: "input" })).toEqual(z.toJSONSchema(z.array(stdio()), { io: "input" }));
  });

  test("once: made on the first call, the same value after", () => {
    let made = 0;
    const shapes = once(() => ({ n: ++made }));
    expect(made).toBe(0);
    expect(shapes()).toBe(shapes());
    expect(made).toBe(1);
  });
});
