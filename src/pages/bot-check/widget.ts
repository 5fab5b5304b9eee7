// The ALTCHA widget (<altcha-widget>), a bundle of its own (dist/pages/altcha.js) that the
// project pages import only when the project has bot protection (shared/bot-check.ts). The
// "external" build of the widget: no inline styles (its CSS is in pages.css) and no workers
// made from blob: URLs; its SHA-256 worker is served from /assets like the pages' own scripts,
// so the pages' CSP stays 'self' only.
import "altcha/external";
// The widget's own words ("I'm not a robot", "Verified") in the pages' other languages; it
// picks the one the page names (bot-check.ts), English being built in.
import "altcha/i18n/ar";
import "altcha/i18n/de";
import "altcha/i18n/es-es";
import "altcha/i18n/fr-fr";

// SHA-256 is the one algorithm Gatehouse's challenges use.
globalThis.$altcha.algorithms.set("SHA-256", () => new Worker("/assets/altcha-worker.js"));
