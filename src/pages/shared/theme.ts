// A project's accent colour paints buttons and focus rings; the text on it must stay readable
// whatever colour was chosen, so the page picks black or white by contrast (WCAG 2 formulas).

const HEX = /^#[0-9a-f]{6}$/i;

export function applyAccent(color: string): void {
  if (!HEX.test(color)) return;
  const root = document.documentElement.style;
  const light = luminance(color);
  root.setProperty("--accent", color);
  root.setProperty("--on-accent", contrast(light, 1) >= contrast(light, 0) ? "#fff" : "#000");
  // Links and rings sit on the white card: a pale accent cannot be text there, so they keep
  // the default ink and only the buttons carry the brand.
  if (contrast(light, 1) >= 4.5) root.setProperty("--accent-ink", color);
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: number, b: number): number {
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}
