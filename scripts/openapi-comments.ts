import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fromBinary } from "@bufbuild/protobuf";
import {
  FileDescriptorSetSchema,
  type DescriptorProto,
  type FileDescriptorProto,
  type SourceCodeInfo_Location,
} from "@bufbuild/protobuf/wkt";

/** Leading comments of the proto elements, by full name (`gatehouse.auth.v1.User.email`). */
export type Comments = ReadonlyMap<string, string>;

// protobuf-es embeds descriptors without source info, so the comments come from a buf build of
// the same proto/ at generation time (buf is a devDependency; `npm run generate` runs it anyway).
export function readComments(cwd: string): Comments {
  const image = execFileSync(join(cwd, "node_modules", ".bin", "buf"), ["build", "--exclude-imports", "-o", "-"], {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
  });
  const set = fromBinary(FileDescriptorSetSchema, image);
  const comments = new Map<string, string>();
  for (const file of set.file) collectFile(file, comments);
  return comments;
}

// Paths into FileDescriptorProto (descriptor.proto field numbers).
const FILE_MESSAGE = 4;
const FILE_ENUM = 5;
const FILE_SERVICE = 6;
const MESSAGE_FIELD = 2;
const MESSAGE_NESTED = 3;
const MESSAGE_ENUM = 4;
const SERVICE_METHOD = 2;
const ENUM_VALUE = 2;

function collectFile(file: FileDescriptorProto, out: Map<string, string>): void {
  const byPath = new Map<string, SourceCodeInfo_Location>();
  for (const location of file.sourceCodeInfo?.location ?? []) byPath.set(location.path.join("."), location);
  const put = (name: string, path: number[]) => {
    const text = clean(byPath.get(path.join("."))?.leadingComments);
    if (text) out.set(name, text);
  };
  const scope = file.package;
  file.messageType.forEach((message, i) => collectMessage(message, `${scope}.${message.name}`, [FILE_MESSAGE, i], put));
  file.enumType.forEach((e, i) => {
    put(`${scope}.${e.name}`, [FILE_ENUM, i]);
    e.value.forEach((v, j) => put(`${scope}.${e.name}.${v.name}`, [FILE_ENUM, i, ENUM_VALUE, j]));
  });
  file.service.forEach((service, i) => {
    put(`${scope}.${service.name}`, [FILE_SERVICE, i]);
    service.method.forEach((method, j) =>
      put(`${scope}.${service.name}.${method.name}`, [FILE_SERVICE, i, SERVICE_METHOD, j]),
    );
  });
}

function collectMessage(
  message: DescriptorProto,
  name: string,
  path: number[],
  put: (name: string, path: number[]) => void,
): void {
  put(name, path);
  message.field.forEach((field, i) => put(`${name}.${field.name}`, [...path, MESSAGE_FIELD, i]));
  message.nestedType.forEach((nested, i) =>
    collectMessage(nested, `${name}.${nested.name}`, [...path, MESSAGE_NESTED, i], put),
  );
  message.enumType.forEach((e, i) => {
    put(`${name}.${e.name}`, [...path, MESSAGE_ENUM, i]);
    e.value.forEach((v, j) => put(`${name}.${e.name}.${v.name}`, [...path, MESSAGE_ENUM, i, ENUM_VALUE, j]));
  });
}

/** `// text` lines arrive as " text\n"; the one space protoc leaves after `//` is dropped. */
function clean(comment: string | undefined): string | undefined {
  if (!comment) return undefined;
  const text = comment
    .split("\n")
    .map((line) => line.replace(/^ /, "").trimEnd())
    .join("\n")
    .trim();
  return text === "" ? undefined : text;
}
