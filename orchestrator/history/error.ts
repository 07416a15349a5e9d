/** A run that cannot be found or read: one line naming it, exit 2 (main.ts). Its own file so main.ts loads nothing else of history/. */
export class HistoryError extends Error {
  override readonly name = "HistoryError";
}
