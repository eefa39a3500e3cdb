import type { Adapter } from "../agents/adapter.ts";
import { OdError } from "../errors.ts";
import { loopDriver } from "../loops/index.ts";
import { acp } from "./acp.ts";
import { type Driver, linesDriver } from "./driver.ts";
import { piRpc } from "./pi-rpc.ts";

/** Session drivers by name; an adapter with a driver protocol names one of these. */
export const drivers: Record<string, Driver> = { [piRpc.name]: piRpc, [acp.name]: acp };

export function driverFor(adapter: Adapter): Driver {
  if (adapter.protocol.kind === "lines") return linesDriver(adapter.protocol);
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
