/**
 * Which worker host an adapter runs on, decided by its module file: a `.py` module runs on the
 * Python host (workers/python/arena_host), anything else on the Node host (workers/host.ts).
 * The module path is all every adapter reference carries (a catalogue entry, `--adapter <path>`,
 * a fixture), so the rule needs no field that some caller could forget to copy.
 */
export const RUNTIMES = ["node", "python"] as const;
export type HostRuntime = (typeof RUNTIMES)[number];

export function runtimeOf(ref: { readonly module: string }): HostRuntime {
  return ref.module.endsWith(".py") ? "python" : "node";
}
