/**
 * The canonical tool's output for a call, as the witness compares tool messages with it: the
 * shared dispatch over the run's corpus. Requests replay the transcript, so the same call is
 * judged many times; each is computed once, and the corpus is read only when first needed.
 */
import { dispatch } from "../../contract/tools/dispatch.ts";
import { loadCorpus } from "../../contract/tools/search.ts";

export function canonicalOutputs(corpusPath: string): (name: string, args: string) => string {
  let corpus: ReturnType<typeof loadCorpus> | undefined;
  const cache = new Map<string, string>();
  return (name, args) => {
    const key = `${name}\u0000${args}`;
    let out = cache.get(key);
    if (out === undefined) {
      corpus ??= loadCorpus(corpusPath);
      cache.set(key, (out = dispatch(name, args, { corpus })));
    }
    return out;
  };
}
