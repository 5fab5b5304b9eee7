// Text that someone else chose and Gatehouse shows to a person (a hook's refusal message on the
// signup form, a name Apple posted and the user's metadata then carries) must read as it is
// stored. Bidirectional formatting controls make it read otherwise: U+202E (right-to-left
// override) shows "Refused: exe.gnp" for the characters "Refused: \u202Egnp.exe", the trick of
// CVE-2021-42574 ("Trojan Source") and of file names sent by mail. Nothing a message or a name
// needs is lost without them: the text's own letters still carry their direction.

/**
 * The embeddings and overrides (U+202A to U+202E), the isolates (U+2066 to U+2069) and the
 * direction marks (U+200E, U+200F, U+061C): Unicode's explicit formatting characters of UAX #9.
 */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;

/** `text` without bidirectional formatting controls (removed, not replaced). */
export function withoutBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, "");
}
