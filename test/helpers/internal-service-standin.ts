import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// A service of the operator's own network, played on loopback: what a request forged through a
// URL someone saved (SSRF) would reach. It answers any request, GET or POST, with JSON holding a
// secret (`db_password`), an e-mail address and an access token (so that it could pass for a
// token endpoint and a userinfo endpoint at once), and counts every connection it is offered,
// TLS or not, on 127.0.0.1 and on ::1 (same port) when the machine has IPv6 loopback.

export interface InternalService {
  port: number;
  /** `http://127.0.0.1:{port}`. */
  url: string;
  /** What must never leave the service. */
  secret: string;
  /** Connections opened to it (a refused request opens none). */
  readonly connections: number;
  /** Requests it answered. */
  readonly requests: number;
  stop(): Promise<void>;
}

export async function startInternalService(): Promise<InternalService> {
  const secret = `db-${randomBytes(12).toString("hex")}`;
  const counts = { connections: 0, requests: 0 };
  const servers: Server[] = [];
  const open = async (host: string, port: number): Promise<number> => {
    const server = createServer((_req, res) => {
      counts.requests++;
      res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          db_password: secret,
          admin_email: "dba@internal.example",
          email_verified: true,
          access_token: "internal-token",
          token_type: "Bearer",
        }),
      );
    });
    server.on("connection", () => counts.connections++);
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => resolve());
    });
    servers.push(server);
    return (server.address() as AddressInfo).port;
  };
  const port = await open("127.0.0.1", 0);
  // [::1] and names that resolve to it reach the same service when the machine has IPv6 loopback.
  await open("::1", port).catch(() => undefined);
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    secret,
    get connections() {
      return counts.connections;
    },
    get requests() {
      return counts.requests;
    },
    async stop() {
      for (const server of servers) server.closeAllConnections();
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    },
  };
}
