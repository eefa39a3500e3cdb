import { isAbsolute } from "node:path";
import type { Adapter } from "../contract/adapter.ts";
import { OdError } from "../contract/errors.ts";
import { loopDriver } from "../loops/index.ts";
import { acp } from "../protocols/acp.ts";
import { type Driver, linesDriver, type SyncDriver } from "../protocols/driver.ts";
import { piRpc } from "../protocols/pi-rpc.ts";
import { watchedDriver } from "./watched.ts";

/** Session drivers by name; an adapter with a driver protocol names one of these. */
export const drivers: Record<string, SyncDriver> = { [piRpc.name]: piRpc, [acp.name]: acp };

/**
 * The driver for an adapter. `source` is where its registry entry came from (RegistryEntry.source):
 * a plugin file's line parser runs in a thread of its own under a watchdog (watched.ts); built-ins
 * and adapters given in code run in od's thread, and answer at once (SyncDriver).
 */
export function driverFor(adapter: Adapter): SyncDriver;
export function driverFor(adapter: Adapter, source?: string): Driver;
export function driverFor(adapter: Adapter, source?: string): Driver {
  if (adapter.protocol.kind === "lines")
    return source && isAbsolute(source) ? watchedDriver(adapter, source) : linesDriver(adapter.protocol);
  if (adapter.protocol.kind === "loop") return loopDriver; // an in-process loop: its lines are od events
  const driver = drivers[adapter.protocol.driver];
  if (!driver)
    throw new OdError(
      "INTERNAL",
      `Adapter ${adapter.id} asks for an unknown protocol driver "${adapter.protocol.driver}"`,
      `Known drivers: ${Object.keys(drivers).join(", ")}.`,
    );
  return driver;
}
