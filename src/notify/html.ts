/** Escapes text for an HTML body or attribute: every value a user or project chose goes through it. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
