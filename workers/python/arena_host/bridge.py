"""The sealed worker's way to the gateway, as bridge-preload.cjs opens it for a Node host.

Inside its own network namespace the worker has only loopback. For each gateway port the
orchestrator serves a Unix socket (orchestrator/supervisor/sandbox/bridge.ts) and names it in
`ARENA_SANDBOX_BRIDGE` (JSON: `[{"port": …, "socket": …}]`). Here the host listens on
`127.0.0.1:<port>` and forwards each connection to that socket, so the base URL it was handed
works unchanged, and nothing else does. The variable is removed at once: a process the adapter
starts must not try to listen on ports its parent holds. Listening happens before `ready`; one
that fails ends the start loudly (exit 70), as the preload does.

`socket` and `threading` are imported inside the functions: only a sealed worker has a bridge,
and an unsealed start should not pay for them.
"""
import json
import os
import sys

EXIT_NO_BRIDGE = 70


def _pump(src, dst):
    import socket  # noqa: PLC0415
    # One direction of a connection; either side ending or failing ends both (splice.cjs).
    try:
        while True:
            data = src.recv(1 << 16)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    for s in (src, dst):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
    # Each socket is the source of exactly one pump, so each is closed exactly once.
    src.close()


def _serve(listener, path):
    import socket  # noqa: PLC0415
    import threading  # noqa: PLC0415
    while True:
        inbound, _ = listener.accept()
        outbound = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            outbound.connect(path)
        except OSError:
            inbound.close()
            outbound.close()
            continue
        for a, b in ((inbound, outbound), (outbound, inbound)):
            threading.Thread(target=_pump, args=(a, b), daemon=True).start()


def open_bridge(env=os.environ):
    raw = env.pop("ARENA_SANDBOX_BRIDGE", None)
    if raw is None:
        return
    import socket  # noqa: PLC0415
    import threading  # noqa: PLC0415

    for route in json.loads(raw):
        port, path = route["port"], route["socket"]
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            listener.bind(("127.0.0.1", port))
            listener.listen(64)
        except OSError as err:
            sys.stderr.write(f"sandbox bridge: cannot listen on 127.0.0.1:{port}: {err}\n")
            sys.exit(EXIT_NO_BRIDGE)
        # Daemon threads: bridging is never what keeps the worker alive.
        threading.Thread(target=_serve, args=(listener, path), daemon=True).start()
