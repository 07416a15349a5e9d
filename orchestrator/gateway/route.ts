/**
 * The shape of the URLs a worker is handed, `http://127.0.0.1:<port>/t/<tag>/v1`, and how a
 * request path splits back into its tag and the part below the tag. Mock and live gateways build
 * and read them here, so a worker cannot tell the two apart by its base URL.
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
  /** The tag of a `/t/<tag>/…` path (percent-decoded); `""` for untagged paths. */
  readonly tag: string;
  /** The path below the tag prefix, e.g. `/v1/chat/completions` (the whole path when untagged). */
  readonly below: string;
}

export function routeOf(url: string): Route {
  const q = url.indexOf("?");
  const pathname = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? "" : url.slice(q + 1);
  if (!pathname.startsWith(TAG_PREFIX)) return { url, pathname, query, tag: "", below: pathname };
  const end = pathname.indexOf("/", TAG_PREFIX.length);
  const raw = pathname.slice(TAG_PREFIX.length, end === -1 ? undefined : end);
  let tag = raw;
  try {
    tag = decodeURIComponent(raw);
  } catch {
    // A malformed escape is still a tag: keep it as sent.
  }
  return { url, pathname, query, tag, below: end === -1 ? "" : pathname.slice(end) };
}

/** The base URL whose requests are recorded under `tag`. */
export function taggedBaseUrl(port: number, tag: string): string {
  return `http://127.0.0.1:${port}${TAG_PREFIX}${encodeURIComponent(tag)}${API_ROOT}`;
}

/** `/v1/chat/completions` → `/chat/completions`; undefined for a path outside the API root. */
export function underApiRoot(below: string): string | undefined {
  if (below === API_ROOT) return "";
  return below.startsWith(`${API_ROOT}/`) ? below.slice(API_ROOT.length) : undefined;
}
