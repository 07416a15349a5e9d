/**
 * The shape of the URLs a worker is handed, `http://127.0.0.1:<port>/t/<tag>.<token>/v1`, and how
 * a request path splits back into its tag, its token and the part below. Mock and live gateways
 * build and read them here, so a worker cannot tell the two apart by its base URL.
 *
 * The tag names the worker × arena in every record; the token is what makes the tag its own: 128
 * random bits the gateway issued with the URL (server.ts), handed to that worker alone over its
 * IPC channel, and never written to a record, a log line or the environment. A request is the
 * tag's only when it carries the tag's token, so no worker can send under another's name by
 * guessing the readable part.
 */

export const TAG_PREFIX = "/t/";
/** The API root under the tag: every base URL ends with it, as provider base URLs do. */
export const API_ROOT = "/v1";

export interface Route {
  /** The request target as sent, query included (the 404 message quotes it). */
  readonly url: string;
  readonly pathname: string;
  /** The query string without its `?`; `""` if none. */
  readonly query: string;
  /** The tag of a `/t/<tag>.<token>/…` path (percent-decoded); `""` for untagged paths. */
  readonly tag: string;
  /** The token after the tag's last `.`; `""` when the segment has none. */
  readonly token: string;
  /** The path below the tag prefix, e.g. `/v1/chat/completions` (the whole path when untagged). */
  readonly below: string;
}

export function routeOf(url: string): Route {
  const q = url.indexOf("?");
  const pathname = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? "" : url.slice(q + 1);
  if (!pathname.startsWith(TAG_PREFIX)) return { url, pathname, query, tag: "", token: "", below: pathname };
  const end = pathname.indexOf("/", TAG_PREFIX.length);
  const segment = pathname.slice(TAG_PREFIX.length, end === -1 ? undefined : end);
  const dot = segment.lastIndexOf(".");
  const raw = dot === -1 ? segment : segment.slice(0, dot);
  let tag = raw;
  try {
    tag = decodeURIComponent(raw);
  } catch {
    // A malformed escape is still a tag: keep it as sent.
  }
  return { url, pathname, query, tag, token: dot === -1 ? "" : segment.slice(dot + 1), below: end === -1 ? "" : pathname.slice(end) };
}

/** The base URL whose requests are recorded under `tag`, carrying its token (see the header). */
export function taggedBaseUrl(port: number, tag: string, token: string): string {
  // `.` is escaped in the tag, so the last `.` of the segment is always the token's.
  return `http://127.0.0.1:${port}${TAG_PREFIX}${encodeURIComponent(tag).replace(/\./g, "%2E")}.${token}${API_ROOT}`;
}

/** `/v1/chat/completions` → `/chat/completions`; undefined for a path outside the API root. */
export function underApiRoot(below: string): string | undefined {
  if (below === API_ROOT) return "";
  return below.startsWith(`${API_ROOT}/`) ? below.slice(API_ROOT.length) : undefined;
}
