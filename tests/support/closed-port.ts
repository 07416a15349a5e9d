/**
 * A loopback base URL nothing listens on. A port freed a moment ago will not do: a test server in
 * another file running in parallel can be handed the same port, and once in CI it was, so "closed"
 * got an answer. Port 2 is privileged and no test server asks for it (they all take ephemeral
 * ports), so it stays closed for the whole test, and fetch does not block it as it does 1, 7, 9 and
 * other well-known ports. This checks that it is closed before handing it out.
 */
import net from "node:net";

const PORT = 2;

export async function closedBaseUrl(): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    const probe = net.connect(PORT, "127.0.0.1");
    probe.once("connect", () => {
      probe.destroy();
      reject(new Error(`something listens on 127.0.0.1:${PORT}; the closed-port tests need nothing there`));
    });
    probe.once("error", (err: NodeJS.ErrnoException) => (err.code === "ECONNREFUSED" ? resolve() : reject(err)));
  });
  return `http://127.0.0.1:${PORT}/v1`;
}
