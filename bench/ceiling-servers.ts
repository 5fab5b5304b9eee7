// Child process for the ceilings: `plain` is a node:http server answering a small JSON POST;
// `connect` is a bare connect-node server (grpc.health.v1.Health/Check as the echo, no Gatehouse
// code) on HTTP/1.1 for Connect JSON and on h2c for gRPC; `h2raw` answers the same gRPC call on
// raw node:http2 streams (the least any gRPC server on Node can do per call); `grpcjs` is a
// @grpc/grpc-js server with the same method (each prints one JSON line with its ports);
// `argon2` hashes on request. All run with the service's process settings (start-command.ts).
import { createServer as createHttp1Server, type Server } from "node:http";
import { createServer as createHttp2Server } from "node:http2";
import type { AddressInfo } from "node:net";
import { createInterface } from "node:readline";
import { readFileSync } from "node:fs";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { createPasswordHasher } from "../src/crypto/passwords.js";
import { Health, HealthCheckResponse_ServingStatus } from "../gen/grpc/health/v1/health_pb.js";

const listen = (server: Server | ReturnType<typeof createHttp2Server>) =>
  new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });

async function main(): Promise<void> {
  const mode = process.argv[2];
  if (mode === "plain") {
    const server = createHttp1Server({ keepAliveTimeout: 5000 }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as { token?: string };
        const out = JSON.stringify({ valid: true, length: String(body.token ?? "").length });
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(out) });
        res.end(out);
      });
    });
    process.stdout.write(`${JSON.stringify({ listening: { http1: await listen(server) } })}\n`);
  } else if (mode === "connect") {
    const handler = connectNodeAdapter({
      routes: (router) =>
        router.service(Health, {
          check: (request) => ({
            status:
              request.service.length >= 0
                ? HealthCheckResponse_ServingStatus.SERVING
                : HealthCheckResponse_ServingStatus.UNKNOWN,
          }),
        }),
    });
    const http1 = createHttp1Server({ keepAliveTimeout: 5000 }, handler);
    const http2 = createHttp2Server({}, handler);
    process.stdout.write(
      `${JSON.stringify({ listening: { http1: await listen(http1), http2: await listen(http2) } })}\n`,
    );
  } else if (mode === "h2raw") {
    // SERVING (field 1 = 1) in its envelope, whatever was asked: the request is read, not parsed.
    const answer = Buffer.from([0, 0, 0, 0, 2, 0x08, 0x01]);
    const server = createHttp2Server({});
    server.on("stream", (stream) => {
      stream.on("data", () => {});
      stream.on("end", () => {
        stream.respond({ ":status": 200, "content-type": "application/grpc+proto" }, { waitForTrailers: true });
        stream.once("wantTrailers", () => stream.sendTrailers({ "grpc-status": "0" }));
        stream.end(answer);
      });
    });
    process.stdout.write(`${JSON.stringify({ listening: { http2: await listen(server) } })}\n`);
  } else if (mode === "grpcjs") {
    const grpc = await import("@grpc/grpc-js");
    const loader = await import("@grpc/proto-loader");
    const definition = loader.loadSync("grpc/health/v1/health.proto", { includeDirs: ["third_party"], enums: String });
    const health = (grpc.loadPackageDefinition(definition) as any).grpc.health.v1.Health;
    const server = new grpc.Server();
    server.addService(health.service, {
      check: (_call: unknown, callback: (error: null, answer: { status: string }) => void) =>
        callback(null, { status: "SERVING" }),
    });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
    process.stdout.write(`${JSON.stringify({ listening: { http2: port } })}\n`);
  } else if (mode === "argon2") {
    // argon2id at the given parameters, 2 hashes in flight, for as long as each stdin line
    // says (seconds); one JSON line per run. Run as a child with the service's process settings,
    // through the service's own hasher (library, salt and hash length), so the login and signup
    // ratios compare like with like; its gate of 2 never holds the 2 loops back.
    const [memoryCost, timeCost, parallelism] = process.argv.slice(3).map(Number);
    const hasher = createPasswordHasher({ memoryCost, timeCost, parallelism }, { maxInFlight: 2 });
    const library = JSON.parse(readFileSync(new URL(import.meta.resolve("@node-rs/argon2/package.json")), "utf8")) as {
      name: string;
      version: string;
    };
    process.stdout.write(`${JSON.stringify({ ready: true, library: `${library.name} ${library.version}` })}\n`);
    // One measurement per line asked; a failure ends the process, and with it the benchmark's wait.
    const measure = async (line: string) => {
      const deadline = performance.now() + Number(line) * 1000;
      const started = performance.now();
      let count = 0;
      let totalMs = 0;
      await Promise.all(
        [0, 1].map(async () => {
          while (performance.now() < deadline) {
            const h0 = performance.now();
            await hasher.hash("a sturdy bench passphrase 1");
            totalMs += performance.now() - h0;
            count++;
          }
        }),
      );
      const elapsed = (performance.now() - started) / 1000;
      process.stdout.write(`${JSON.stringify({ per_s: count / elapsed, ms_per_hash: totalMs / count })}\n`);
    };
    createInterface({ input: process.stdin }).on("line", (line) => {
      measure(line).catch((error: unknown) => {
        console.error(error);
        process.exit(1);
      });
    });
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
  // Stop when the parent goes away, whichever way.
  process.on("SIGTERM", () => process.exit(0));
  process.on("disconnect", () => process.exit(0));
  process.stdin.on("end", () => process.exit(0));
  process.stdin.resume();
}

main().catch((error: unknown) => {
  process.stderr.write(`ceiling server failed: ${String(error)}\n`);
  process.exit(1);
});
