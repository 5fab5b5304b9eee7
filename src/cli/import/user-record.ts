import { create, type JsonObject } from "@bufbuild/protobuf";
import { UpdateUserRequestSchema } from "../../../gen/gatehouse/auth/v1/users_pb.js";
import { checkE164 } from "../../domain/formats.js";
import { NOT_A_LOCALE } from "../../domain/locale-setting.js";
import { canonicalLocale } from "../../i18n/languages.js";
import { validate } from "../../interceptors/validation.js";
import type { ImportedUser } from "../../store/repositories/users.js";
import { checkImportedHash, type ImportedScheme } from "./password-hash.js";
import type { ImportField, ImportFormat } from "./read-records.js";

/** Why a line was not imported: a stable reason for scripts, and words for people. */
export interface Refusal {
  line: number;
  reason:
    | "MALFORMED_LINE"
    | "VALIDATION_FAILED"
    | "UNSUPPORTED_HASH"
    | "EMAIL_EXISTS"
    | "PHONE_EXISTS"
    | "INSERT_FAILED"
    | "SIGNUP_REFUSED_BY_HOOK";
  message: string;
}

export type UserRecord = Omit<ImportedUser, "id" | "auditDetails"> & { scheme: ImportedScheme | "none" };

/**
 * One line's fields as the user to insert, held to the rules the API holds users to: the email
 * and metadata as UpdateUser checks them (format, 254 characters, 16 KiB and 4 KiB of JSON,
 * nesting, NUL), the phone as E.164, the locale as a BCP 47 tag (stored canonical, as
 * UpdateUser stores it), the password hash to a scheme sign-in can check.
 */
export function toUserRecord(
  fields: Partial<Record<ImportField, unknown>>,
  format: ImportFormat,
): UserRecord | Omit<Refusal, "line"> {
  const invalid = (message: string) => ({ reason: "VALIDATION_FAILED" as const, message });
  const email = stringField(fields.email);
  const phone = stringField(fields.phone);
  const hash = stringField(fields.password_hash);
  const locale = stringField(fields.locale);
  if (email === false || phone === false || hash === false || locale === false)
    return invalid("email, phone, password_hash and locale must be strings");
  if (email === undefined && phone === undefined) return invalid("has neither an email nor a phone");
  const emailVerified = booleanField(fields.email_verified, format);
  const phoneVerified = booleanField(fields.phone_verified, format);
  if (emailVerified === undefined || phoneVerified === undefined)
    return invalid("email_verified and phone_verified must be true or false");
  const metadata = objectField(fields.metadata, format);
  const appMetadata = objectField(fields.app_metadata, format);
  if (metadata === undefined || appMetadata === undefined)
    return invalid("metadata and app_metadata must be JSON objects");

  const request = create(UpdateUserRequestSchema, {
    id: "import",
    email,
    metadata: metadata as JsonObject,
    appMetadata: appMetadata as JsonObject,
  });
  const violations = validate(UpdateUserRequestSchema, request);
  if (phone !== undefined) {
    const problem = checkE164(phone);
    if (problem) violations.push({ field: "phone", description: problem });
  }
  const canonical = locale === undefined ? "" : canonicalLocale(locale);
  if (canonical === undefined) violations.push({ field: "locale", description: NOT_A_LOCALE });
  if (violations.length > 0) return invalid(violations.map((v) => `${v.field}: ${v.description}`).join("; "));

  let scheme: UserRecord["scheme"] = "none";
  if (hash !== undefined) {
    const checked = checkImportedHash(hash);
    if ("problem" in checked) return { reason: "UNSUPPORTED_HASH", message: checked.problem };
    scheme = checked.scheme;
  }
  return {
    email: email ?? null,
    phone: phone ?? null,
    // Verified only what the user has: no verified email on a phone-only user.
    emailVerified: email !== undefined && emailVerified,
    phoneVerified: phone !== undefined && phoneVerified,
    passwordHash: hash ?? null,
    metadata,
    appMetadata,
    locale: canonical ?? "",
    scheme,
  };
}

/** undefined when absent (or null, or empty); false when not a string. */
function stringField(value: unknown): string | undefined | false {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") return false;
  const trimmed = value.trim();
  return trimmed === "" ? undefined : trimmed;
}

/** JSON: a boolean. CSV: true/false, 1/0, yes/no (any case). Absent: false. undefined when neither. */
function booleanField(value: unknown, format: ImportFormat): boolean | undefined {
  if (value === undefined || value === null) return false;
  if (typeof value === "boolean") return value;
  if (format !== "csv" || typeof value !== "string") return undefined;
  const word = value.trim().toLowerCase();
  if (["true", "1", "yes", "t", "y"].includes(word)) return true;
  if (["false", "0", "no", "f", "n", ""].includes(word)) return false;
  return undefined;
}

/** JSON: an object. CSV: the object's JSON text. Absent: `{}`. undefined when neither. */
function objectField(value: unknown, format: ImportFormat): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return {};
  let parsed: unknown = value;
  if (format === "csv" && typeof value === "string") {
    try {
      parsed = JSON.parse(value) as unknown;
    } catch {
      return undefined;
    }
  }
  return parsed !== null && typeof parsed === "object" && !Array.isArray(parsed)
    ? (parsed as Record<string, unknown>)
    : undefined;
}
