"""A raised exception and what it wraps, as protocol data (ErrorCause), as workers/cause-chain.ts
makes it: the orchestrator classifies a failure from these (a refused connection to the gateway
is the provider's fault, not the framework's), never from prose.

Python's links are `__cause__` (`raise … from …`), `__context__` (raised while handling) and
the `reason` urllib wraps an OSError in; an ExceptionGroup's `exceptions` are its members. An
OSError's errno becomes its code by name (`ECONNREFUSED`), as Node's `err.code` is; an HTTP
error's status is its `status`/`code` when that is an int.
"""
import errno

MAX_LINKS = 8
ENDPOINT_MAX = 255


def _code(e):
    if isinstance(e, OSError) and isinstance(e.errno, int) and e.errno in errno.errorcode:
        return errno.errorcode[e.errno]
    code = getattr(e, "code", None)
    return code if isinstance(code, str) and code else None


def _status(e):
    for name in ("status", "status_code", "code"):
        value = getattr(e, name, None)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def _links(e):
    out = [e.__cause__, getattr(e, "reason", None), e.__context__]
    out.extend(list(getattr(e, "exceptions", ()) or ())[:MAX_LINKS])
    return [x for x in out if isinstance(x, BaseException)]


def cause_chain(err):
    """The exception and its causes, outermost first, breadth first, at most MAX_LINKS."""
    chain, seen, queue = [], set(), [err]
    while queue and len(chain) < MAX_LINKS:
        e = queue.pop(0)
        if id(e) in seen:
            continue
        seen.add(id(e))
        link = {"name": type(e).__name__, "message": str(e)[:500]}
        code, status = _code(e), _status(e)
        if code:
            link["code"] = code
        if status is not None and not (isinstance(e, OSError) and status == e.errno):
            link["status"] = status
        chain.append(link)
        queue.extend(_links(e))
    return chain
