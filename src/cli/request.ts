import {
  create,
  toJson,
  type DescMessage,
  type JsonValue,
  type MessageInitShape,
  type MessageShape,
} from "@bufbuild/protobuf";
import { validationFailed } from "../domain/errors.js";
import { validate } from "../interceptors/validation.js";

/**
 * The RPC's request message, held to the rules its proto declares by the same code as the
 * validation interceptor: a command refuses what the API would, in the same words.
 */
export function checkedRequest<D extends DescMessage>(schema: D, init: MessageInitShape<D>): MessageShape<D> {
  const message = create(schema, init);
  const violations = validate(schema, message);
  if (violations.length > 0) throw validationFailed(violations);
  return message;
}

/** The RPC's response as its REST and Connect JSON (the server's JSON options): `--json` prints this. */
export function wireJson<D extends DescMessage>(schema: D, init: MessageInitShape<D>): JsonValue {
  return toJson(schema, create(schema, init), { alwaysEmitImplicit: true, useProtoFieldName: true });
}
