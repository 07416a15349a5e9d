import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/**/*.test.ts", "packages/*/tests/**/*.test.ts"],
    testTimeout: 20_000,
    // Tests spawn real worker processes; keep the pool small on a 2-core machine.
    maxWorkers: 2,
  },
});
