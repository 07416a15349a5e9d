/** Sentence counting for `sentence_count` (arena-format.md §5.2). */

const DECIMAL_POINT = /(?<=\p{Nd})\.(?=\p{Nd})/gu;
const TERMINATORS = /[.!?]+/u;
// Python `str.isalpha()` is true exactly for the `L*` categories.
const LETTER = /\p{L}/u;

/** Pieces between runs of `.!?` that contain a letter; a decimal point does not end a sentence. */
export function countSentences(text: string): number {
  return text
    .replace(DECIMAL_POINT, "")
    .split(TERMINATORS)
    .filter((piece) => LETTER.test(piece)).length;
}
