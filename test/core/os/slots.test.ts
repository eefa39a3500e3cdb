/** The one semaphore of od: runs take a slot each (od serve's --max-runs), probes one per core. */
import { describe, expect, test } from "bun:test";
import { availableParallelism } from "node:os";
import { probeSlots } from "../../../src/core/os/probe.ts";
import { Slots } from "../../../src/core/os/slots.ts";

describe("Slots", () => {
  test("run: at most `limit` at once, the rest in the order they asked", async () => {
    const slots = new Slots(2);
    const order: string[] = [];
    let inside = 0;
    let most = 0;
    const job = (name: string) =>
      slots.run(async () => {
        most = Math.max(most, ++inside);
        order.push(name);
        await Bun.sleep(5);
        inside--;
      });
    await Promise.all(["a", "b", "c", "d", "e"].map(job));
    expect(most).toBe(2);
    expect(order).toEqual(["a", "b", "c", "d", "e"]);
    expect([slots.running, slots.queued]).toEqual([0, 0]);
  });

  test("run gives its slot back when what it ran throws", async () => {
    const slots = new Slots(1);
    await expect(slots.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(slots.running).toBe(0);
    expect(await slots.run(async () => "next")).toBe("next");
  });

  test("a waiter cancelled before its turn leaves the queue", async () => {
    const slots = new Slots(1);
    const release = await slots.acquire();
    const ac = new AbortController();
    const waiting = slots.acquire(ac.signal);
    ac.abort();
    await expect(waiting).rejects.toMatchObject({ code: "CANCELLED" });
    expect(slots.queued).toBe(0);
    release();
  });

  test("a limit that is no positive integer is refused", () => {
    expect(() => new Slots(0)).toThrow(expect.objectContaining({ code: "INVALID_REQUEST" }));
  });

  test("the probes' slots are made once, one per core", () => {
    expect(probeSlots()).toBe(probeSlots());
    expect(probeSlots().limit).toBe(availableParallelism());
  });
});
