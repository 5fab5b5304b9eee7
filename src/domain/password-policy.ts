// "A very common password is WEAK_PASSWORD" (API.md section 3). Only passwords that pass the
// 8-character minimum matter here, so the list holds the most used ones of that length or more,
// from the public breach-frequency lists. Compared case-insensitively: "Password1" is as weak
// as "password1".
const COMMON = new Set([
  "password", "password1", "password12", "password123", "password1234", "passw0rd", "p@ssw0rd", "p@ssword",
  "12345678", "123456789", "1234567890", "0123456789", "11111111", "00000000", "12341234", "87654321",
  "88888888", "12121212", "11223344", "123123123", "987654321", "1q2w3e4r", "1q2w3e4r5t", "q1w2e3r4",
  "qwertyui", "qwertyuiop", "qwerty123", "qwerty12", "1qaz2wsx", "zaq12wsx", "asdfghjk", "asdfghjkl",
  "zxcvbnm1", "abcd1234", "abc12345", "abcdefgh", "iloveyou", "iloveyou1", "sunshine", "princess",
  "football", "baseball", "superman", "starwars", "whatever", "trustno1", "welcome1", "welcome123",
  "letmein1", "computer", "internet", "michelle", "jennifer", "corvette", "mercedes", "midnight",
  "changeme", "admin123", "administrator", "master12", "1234qwer", "qazwsxedc", "passpass", "secret12",
  "access14", "blink182", "liverpool", "chocolate", "butterfly", "pokemon1", "dragon12", "monkey12",
]);

export function isCommonPassword(password: string): boolean {
  return COMMON.has(password.toLowerCase());
}
