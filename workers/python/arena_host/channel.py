"""The orchestrator's channel, as a non-Node child sees it.

The orchestrator starts every worker with Node IPC and `serialization: "json"` (execa `ipc:
true`). Node then hands the child one end of a Unix socket pair as the descriptor named by
`NODE_CHANNEL_FD`, with `NODE_CHANNEL_SERIALIZATION_MODE=json`, and frames each message as
`JSON.stringify(message) + "\\n"` in UTF-8 both ways. So a message is one line of JSON.
"""
import json
import os


class ChannelError(Exception):
    """The host was not started with a JSON IPC channel."""


class Channel:
    def __init__(self, env=os.environ):
        fd = env.get("NODE_CHANNEL_FD")
        mode = env.get("NODE_CHANNEL_SERIALIZATION_MODE", "json")
        if fd is None or not fd.isdigit():
            raise ChannelError("NODE_CHANNEL_FD is not set: start the host with a JSON IPC channel")
        if mode != "json":
            raise ChannelError(f"NODE_CHANNEL_SERIALIZATION_MODE is {mode!r}; only 'json' is spoken here")
        self._fd = int(fd)
        self._buffer = b""
        # Nothing this process starts may inherit the channel: it belongs to the host alone.
        os.set_inheritable(self._fd, False)
        for name in ("NODE_CHANNEL_FD", "NODE_CHANNEL_SERIALIZATION_MODE"):
            env.pop(name, None)

    def send(self, message):
        # allow_nan=False: Node's JSON.parse would refuse NaN. ASCII with escapes: a lone surrogate
        # in a str crosses as `\udxxx`, which JSON.parse takes, not as bytes that are not UTF-8.
        data = (json.dumps(message, allow_nan=False) + "\n").encode("ascii")
        view = memoryview(data)
        while view:
            written = os.write(self._fd, view)
            view = view[written:]

    def lines(self):
        """Each line the orchestrator sent (bytes: decoding is parsing), until the channel closes."""
        while True:
            while b"\n" in self._buffer:
                line, self._buffer = self._buffer.split(b"\n", 1)
                if line.strip():
                    yield line
            try:
                chunk = os.read(self._fd, 1 << 16)
            except ConnectionResetError:
                return
            if not chunk:
                return
            self._buffer += chunk
