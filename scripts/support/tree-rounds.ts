/**
 * The parent's half of a script that measures in a child process per checkout: for each round,
 * each tree in turn runs `node <script> --child <tree> [args…]` (cwd: the tree), and what the
 * child printed on stdout, one JSON value, is kept per tree. Alternating round by round puts the
 * machine's drift on every tree alike.
 */
import { fileURLToPath } from "node:url";
import { execa } from "execa";

export async function childRoundsPerTree<T>(script: string, trees: readonly string[], rounds: number, args: readonly string[] = []): Promise<Map<string, T[]>> {
  const out = new Map<string, T[]>(trees.map((t) => [t, []]));
  const file = script.startsWith("file:") ? fileURLToPath(script) : script;
  for (let r = 0; r < rounds; r++) {
    for (const tree of trees) {
      const run = await execa(process.execPath, [file, "--child", tree, ...args], { cwd: tree });
      out.get(tree)!.push(JSON.parse(run.stdout) as T);
    }
  }
  return out;
}
