// Ids are `prefix_` + 26 lowercase Crockford base32 characters (crypto/ids.ts). An id of the
// wrong prefix or shape can name nothing, so flows answer it as NOT_FOUND without a query.
const SHAPE = /^[a-z]+_[0-9a-hjkmnp-tv-z]{26}$/;

export function isIdOf(prefix: string, id: string): boolean {
  return id.startsWith(`${prefix}_`) && SHAPE.test(id);
}
