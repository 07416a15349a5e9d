/** Types of fresh.mjs (plain JavaScript, so bin.mjs can load it before any TypeScript). */
export declare function freshBundle(manifestFile?: string): string | undefined;
export declare function cliBundleSetting(env?: Record<string, string | undefined>): "on" | "off" | { invalid: string | undefined };
export declare function loadCli(command?: string): Promise<{
  main: typeof import("../main.ts").main;
  EXIT_INFRA: typeof import("../exit-codes.ts").EXIT_INFRA;
  terminalWriter: typeof import("../terminal.ts").terminalWriter;
}>;
