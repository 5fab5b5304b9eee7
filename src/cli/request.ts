import { create, type DescMessage, type MessageInitShape, type MessageShape } from "@bufbuild/protobuf";
import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { validationFailed } from "../domain/errors.js";
import { validate } from "../interceptors/validation.js";

/**
 * The RPC's request message, held to the rules its proto declares by the same code as the
 * validation interceptor, before the command opens the database or resolves its organization:
 * a usage error is told first, in the API's words. The RPC checks it again, as any request.
 */
export function checkedRequest<D extends DescMessage>(schema: D, init: MessageInitShape<D>): MessageShape<D> {
  const message = create(schema, init);
  const violations = validate(schema, message);
  if (violations.length > 0) throw validationFailed(violations);
  return message;
}

/** A timestamp of an answer as the text lines show it (RFC 3339, milliseconds, UTC). */
export function iso(timestamp: Timestamp | undefined): string {
  return timestamp ? timestampDate(timestamp).toISOString() : "";
}
