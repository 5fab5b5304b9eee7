import { generateSecret, generateURI, verify } from "otplib";
import QRCode from "qrcode";

// TOTP as authenticator apps expect it (RFC 6238: SHA-1, 6 digits, 30-second steps), through
// otplib's functional API. Time comes from the caller's clock, so tests can move it.

const PERIOD_SECONDS = 30;
/** 160-bit seeds, RFC 4226's recommended length. */
const SECRET_BYTES = 20;

export function newTotpSecret(): string {
  return generateSecret({ length: SECRET_BYTES });
}

export function totpUri(input: { issuer: string; account: string; secret: string }): string {
  return generateURI({
    issuer: input.issuer,
    label: input.account,
    secret: input.secret,
    period: PERIOD_SECONDS,
    digits: 6,
  });
}

/** A QR code of the URI as a `data:image/png;base64,…` URI. */
export function qrCodeDataUri(text: string): Promise<string> {
  return QRCode.toDataURL(text, { errorCorrectionLevel: "M", margin: 2 });
}

/**
 * The time step `code` is valid for, one step either side of `now` accepted for clock drift;
 * undefined when it matches none. The caller records the step so the code is never accepted
 * again (RFC 6238 section 5.2).
 */
export async function totpStep(secret: string, code: string, now: Date): Promise<number | undefined> {
  if (!/^\d{6}$/.test(code)) return undefined; // otplib throws on anything else
  const epoch = Math.floor(now.getTime() / 1000);
  const result = await verify({ secret, token: code, epoch, epochTolerance: PERIOD_SECONDS, period: PERIOD_SECONDS });
  if (!result.valid) return undefined;
  return Math.floor(epoch / PERIOD_SECONDS) + result.delta;
}
