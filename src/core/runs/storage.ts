import { OdError } from "../contract/errors.ts";

/**
 * The run service's view of its storage: healthy until a write fails, then failing
 * until a small probe write succeeds again. While it fails no run starts (507),
 * so no run is spawned only to fail at its first event.
 */
export class StorageGate {
  private fault: OdError | undefined;

  constructor(private readonly probe: () => void) {}

  /** A storage error becomes the gate's fault; anything else passes through. Returns the error, to throw. */
  note(err: unknown): unknown {
    if (err instanceof OdError && err.code === "STORAGE") this.fault = err;
    return err;
  }

  /** Throws STORAGE while storage still fails; clears the fault once a probe write succeeds. */
  check(): void {
    if (!this.fault) return;
    try {
      this.probe();
      this.fault = undefined;
    } catch (err) {
      const e = OdError.from(this.note(err));
      throw new OdError("STORAGE", `No run can start while od's storage fails: ${e.message}`, e.hint);
    }
  }
}
