// How long a sign-in link lives and how often one is sent: magic-link.ts sends them and
// signup-confirmation.ts sends the link that confirms a signup, which magic-link.ts verifies.

/** Links work for 15 minutes (auth.proto, SendMagicLink). */
export const MAGIC_LINK_TTL_SECONDS = 900;
/** At most one link per email per minute, as for one-time codes. */
export const MAGIC_LINK_RESEND_INTERVAL_SECONDS = 60;
