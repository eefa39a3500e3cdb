import { OdError } from "../contract/errors.ts";

/**
 * Where a run's agent runs: this machine, or another one reached through an engine the user
 * already runs — OpenSSH, Docker or Podman, kubectl. A target is written as a URL:
 * `ssh://[user@]host[:port]`, `docker://<container>`, `podman://<container>`,
 * `kubectl://[namespace/]pod[/container]`.
 */
export type Target =
  | { kind: "ssh"; host: string; user?: string; port?: number }
  | { kind: "docker" | "podman"; container: string }
  | { kind: "kubectl"; pod: string; namespace?: string; container?: string };

/** A host, user, container, pod or namespace name: letters, digits, `.`, `_`, `-`, never a leading `-` (it would read as a flag). */
const NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
const HINT = "Targets look like ssh://user@host:22, docker://my-container, podman://my-container or kubectl://namespace/pod/container.";

function name(value: string | undefined, what: string, spec: string): string {
  if (!value || !NAME.test(value)) throw new OdError("INVALID_REQUEST", `Not a valid ${what} in target "${spec}": "${value ?? ""}"`, HINT);
  return value;
}

export function parseTarget(spec: string): Target {
  const m = /^([a-z]+):\/\/(.*)$/.exec(spec);
  if (!m) throw new OdError("INVALID_REQUEST", `Not a target: "${spec}"`, HINT);
  const [, scheme, rest = ""] = m;
  switch (scheme) {
    case "ssh": {
      const hm = /^(?:([^@/]+)@)?([^@:/]+)(?::(\d+))?$/.exec(rest);
      if (!hm) throw new OdError("INVALID_REQUEST", `Not an ssh target: "${spec}"`, HINT);
      const port = hm[3] === undefined ? undefined : Number(hm[3]);
      if (port !== undefined && (port < 1 || port > 65_535)) throw new OdError("INVALID_REQUEST", `Not a port: ${hm[3]}`, HINT);
      const user = hm[1] === undefined ? undefined : name(hm[1], "user", spec);
      return { kind: "ssh", host: name(hm[2], "host", spec), ...(user ? { user } : {}), ...(port ? { port } : {}) };
    }
    case "docker":
    case "podman":
      return { kind: scheme, container: name(rest, "container", spec) };
    case "kubectl": {
      const parts = rest.split("/");
      if (parts.length > 3) throw new OdError("INVALID_REQUEST", `Not a kubectl target: "${spec}"`, HINT);
      // pod; namespace/pod; namespace/pod/container
      const [namespace, pod, container] = parts.length === 1 ? [undefined, parts[0], undefined] : parts;
      return {
        kind: "kubectl",
        pod: name(pod, "pod", spec),
        ...(namespace !== undefined ? { namespace: name(namespace, "namespace", spec) } : {}),
        ...(container !== undefined ? { container: name(container, "container", spec) } : {}),
      };
    }
    default:
      throw new OdError("INVALID_REQUEST", `Unknown target kind "${scheme}" in "${spec}"`, HINT);
  }
}

/** The target as the user wrote it (for status lines, run logs and the cache key of its detection). */
export function formatTarget(t: Target): string {
  if (t.kind === "ssh") return `ssh://${t.user ? `${t.user}@` : ""}${t.host}${t.port ? `:${t.port}` : ""}`;
  if (t.kind === "kubectl") return `kubectl://${[t.namespace, t.pod, t.container].filter(Boolean).join("/")}`;
  return `${t.kind}://${t.container}`;
}
