/** Match-length bounds of a pattern node: Python only accepts fixed-width look-behind bodies. */
import type { Node } from "./ast.ts";

function times(a: number, b: number): number {
  // 0 × ∞ must be 0 (an `x{0}` body adds nothing), not NaN.
  return a === 0 || b === 0 ? 0 : a * b;
}

export function width(node: Node): readonly [min: number, max: number] {
  switch (node.kind) {
    case "seq":
      return node.items.reduce<readonly [number, number]>(
        ([lo, hi], item) => {
          const [a, b] = width(item);
          return [lo + a, hi + b];
        },
        [0, 0],
      );
    case "alt": {
      const widths = node.branches.map(width);
      return [Math.min(...widths.map((w) => w[0])), Math.max(...widths.map((w) => w[1]))];
    }
    case "char":
    case "any":
    case "set":
    case "shorthand":
      return [1, 1];
    case "assert":
    case "look":
      return [0, 0];
    case "group":
      return width(node.body);
    case "backref":
      // The parser rejects group references inside a look-behind, the only place widths are asked for.
      return [0, Number.POSITIVE_INFINITY];
    case "repeat": {
      const [lo, hi] = width(node.body);
      return [times(lo, node.min), times(hi, node.max)];
    }
  }
}
