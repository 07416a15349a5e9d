/**
 * "Did you mean …?" for a mistyped flag, command, arena or adapter: the nearest known name by
 * edit distance, offered only when it is close enough that the guess is likely the intent.
 */

/**
 * Edit distance with adjacent transpositions (optimal string alignment): insert, delete,
 * substitute or swap two neighbours, each 1 — `rnus` is one slip from `runs`, not two.
 * Names are short: O(n·m) is nothing.
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * The closest candidate within a third of the word's length (at least 1, at most 3 edits), ties
 * to the first listed; undefined when nothing is that close — a far guess misleads more than none.
 */
export function nearest(word: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestDistance && d <= limit) {
      best = c;
      bestDistance = d;
    }
  }
  return best;
}

/** `; did you mean 'x'?` or nothing, to append to an error line. */
export function didYouMean(word: string, candidates: Iterable<string>, render: (s: string) => string = (s) => `'${s}'`): string {
  const hit = nearest(word, candidates);
  return hit === undefined ? "" : `; did you mean ${render(hit)}?`;
}
