/**
 * "Did you mean …?" for a mistyped flag, command, arena or adapter: the nearest known name by
 * edit distance, offered only when it is close enough that the guess is likely the intent.
 */

/** Levenshtein distance (insert, delete, substitute: each 1). Names are short: O(n·m) is nothing. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost));
    }
    previous = current;
  }
  return previous[b.length]!;
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
