import {
  createRegistry,
  toBinary,
  type DescExtension,
  type DescFile,
  type DescService,
  type Registry,
} from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";

// What server reflection describes: the files of the services the server runs, exactly the
// descriptors its routers were built from (gen/, embedded by protoc-gen-es), with every file
// they import, down to google/protobuf/descriptor.proto, so a client needs no .proto file at all.
// Files that describe no service but that clients need to read an answer (the google.rpc error
// details in every error) are added as roots too.

export interface ReflectionFiles {
  /** Fully-qualified names of the services served, sorted. */
  services: readonly string[];
  /** The file and the files it imports, transitively, the file first. */
  withImports(file: DescFile): DescFile[];
  /** A file by its name (`gatehouse/auth/v1/auth.proto`). */
  byName(name: string): DescFile | undefined;
  /** The file that declares a fully-qualified symbol: a type, a service, a method, a field, an enum value or an extension. */
  containingSymbol(symbol: string): DescFile | undefined;
  extension(containingType: string, number: number): DescExtension | undefined;
  /** The extension numbers known for a message, or undefined for an unknown message. */
  extensionNumbers(containingType: string): number[] | undefined;
  /** A file as FileDescriptorProto bytes (serialized once). */
  bytes(file: DescFile): Uint8Array;
}

export function reflectionFiles(
  services: readonly DescService[],
  extraRoots: readonly DescFile[] = [],
): ReflectionFiles {
  const files = new Map<string, DescFile>();
  // Keyed by the file's path (`proto.name`); DescFile.name drops the `.proto`.
  const visit = (file: DescFile) => {
    if (files.has(file.proto.name)) return;
    files.set(file.proto.name, file);
    file.dependencies.forEach(visit);
  };
  for (const service of services) visit(service.file);
  extraRoots.forEach(visit);
  const registry: Registry = createRegistry(...files.values());
  const serialized = new Map<string, Uint8Array>();

  return {
    services: services.map((s) => s.typeName).sort(),
    withImports(file) {
      const out: DescFile[] = [];
      const seen = new Set<string>();
      const walk = (f: DescFile) => {
        if (seen.has(f.proto.name)) return;
        seen.add(f.proto.name);
        out.push(f);
        f.dependencies.forEach(walk);
      };
      walk(file);
      return out;
    },
    byName: (name) => files.get(name),
    containingSymbol: (symbol) => containingSymbol(registry, symbol),
    extension(containingType, number) {
      const message = registry.getMessage(containingType);
      return message && registry.getExtensionFor(message, number);
    },
    extensionNumbers(containingType) {
      if (!registry.getMessage(containingType)) return undefined;
      const numbers: number[] = [];
      for (const type of registry)
        if (type.kind === "extension" && type.extendee.typeName === containingType) numbers.push(type.number);
      return numbers.sort((a, b) => a - b);
    },
    bytes(file) {
      let bytes = serialized.get(file.proto.name);
      if (!bytes) serialized.set(file.proto.name, (bytes = toBinary(FileDescriptorProtoSchema, file.proto)));
      return bytes;
    },
  };
}

function containingSymbol(registry: Registry, symbol: string): DescFile | undefined {
  const name = symbol.startsWith(".") ? symbol.slice(1) : symbol;
  const type = registry.get(name);
  if (type) return type.file;
  // A member: the last part names a method of a service, or a field, oneof or enum value of a
  // message (enum values are scoped beside their enum, in the enclosing message).
  const dot = name.lastIndexOf(".");
  if (dot < 0) return undefined;
  const parent = registry.get(name.slice(0, dot));
  const member = name.slice(dot + 1);
  if (parent?.kind === "service") return parent.methods.some((m) => m.name === member) ? parent.file : undefined;
  if (parent?.kind === "message") {
    const found =
      parent.fields.some((f) => f.name === member) ||
      parent.oneofs.some((o) => o.name === member) ||
      parent.nestedEnums.some((e) => e.values.some((v) => v.name === member));
    return found ? parent.file : undefined;
  }
  // A top-level enum's values sit in its package (`gatehouse.options.v1.CREDENTIAL_API_KEY`).
  for (const candidate of registry) {
    if (
      candidate.kind === "enum" &&
      candidate.parent === undefined &&
      candidate.file.proto.package === name.slice(0, dot) &&
      candidate.values.some((v) => v.name === member)
    ) {
      return candidate.file;
    }
  }
  return undefined;
}
