/**
 * The floor: a bare node:http server that reads the body and sends the gateway's reply bytes
 * unchanged. Measured right after the gateway, it shows what loopback HTTP itself costs on this
 * machine at that moment (a shared 2-core VM varies by tens of percent from minute to minute).
 */
import http from "node:http";

export interface Floor {
  url: string;
  served: () => number;
  close: () => void;
}

export async function startFloor(reply: string): Promise<Floor> {
  let served = 0;
  const server = http.createServer({ noDelay: true, keepAliveTimeout: 30_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      served++;
      res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(reply) });
      res.end(reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1/chat/completions`,
    served: () => served,
    close: () => {
      server.close();
      server.closeAllConnections();
    },
  };
}
