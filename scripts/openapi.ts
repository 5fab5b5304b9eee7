// Writes gen/openapi.json, the OpenAPI 3.1 document of the REST paths, from the descriptors in
// gen/ and the comments in proto/. Run by `npm run generate` after buf; CI fails when the
// committed file differs from what this writes.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { DescFile, DescService } from "@bufbuild/protobuf";
import { readComments } from "./openapi-comments.js";
import { buildOpenApi } from "./openapi-document.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const OPENAPI_FILE = join(ROOT, "gen", "openapi.json");

/** The document as `npm run generate` writes it. */
export async function generateOpenApi(): Promise<string> {
  const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
  const document = buildOpenApi({ services: await servicesInGen(), comments: readComments(ROOT), version });
  return `${JSON.stringify(document, null, 2)}\n`;
}

/** Every service of every generated file, files in path order, services in declaration order. */
async function servicesInGen(): Promise<DescService[]> {
  const files = listFiles(join(ROOT, "gen"))
    .filter((f) => f.endsWith("_pb.ts"))
    .sort();
  const services: DescService[] = [];
  for (const file of files) {
    const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const value of Object.values(module)) {
      if (isFile(value)) services.push(...value.services);
    }
  }
  return services;
}

function isFile(value: unknown): value is DescFile {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "file";
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(OPENAPI_FILE, await generateOpenApi());
  process.stdout.write(`wrote ${relative(ROOT, OPENAPI_FILE)}\n`);
}
