// The layer map of src/ (../shared/STYLE.md, ARCHITECTURE.md, "The layout we keep"), checked by `npm run lint`.
//
// A request flows one way: transport → interceptors → handlers (and routes) → flows →
// repositories (store), crypto and notify; domain and i18n sit at the bottom. Each rule below
// forbids an import that points up that chain, so a newcomer can trust the map: a file only
// knows the rooms beneath it, and a change in an upper room never ripples down.
//
// Type-only imports (`import type`) count as edges for the layer rules: a flow typed against an
// interceptor's context must be read, and changes, with that interceptor, even though no code
// loads it at run time. They do not count for `no-circular`: TypeScript erases them, so a cycle
// made of them cannot run a module before its imports are initialised, which is the harm a
// runtime cycle does (a `const` read in its temporal dead zone, a class undefined at import).
//
// test/ is not checked: tests reach into any room to set up what they assert.

/** `^src/(a|b)` followed by `/` (a folder) or `.ts` (a file at the top of src). */
const rooms = (...names) => `^src/(${names.join("|")})(/|\\.ts$)`;
/** The composition root and the front doors: nothing below them imports them. */
const ROOT = ["app", "server", "main", "cli", "api-router", "cluster"];

const rules = [
  {
    name: "no-circular",
    comment:
      "A runtime import cycle: one module of it runs before the other's exports exist. Move the " +
      "shared piece into a module of its own that both import.",
    from: { path: "^src/" },
    to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
  },
  {
    name: "domain-at-the-bottom",
    comment:
      "src/domain holds types, policies and the reason vocabulary; it imports nothing of ours but " +
      "domain and i18n (pure, shared with the browser pages).",
    from: { path: "^src/domain/" },
    to: { path: "^(src|gen)/", pathNot: "^src/(domain|i18n)/" },
  },
  {
    name: "i18n-at-the-bottom",
    comment: "src/i18n is bundled into the browser pages too: it imports nothing of ours but i18n.",
    from: { path: "^src/i18n/" },
    to: { path: "^(src|gen)/", pathNot: "^src/i18n/" },
  },
  {
    name: "store-below-flows",
    comment: "Repositories are called by flows; they import no flow, handler, interceptor or transport.",
    from: { path: "^src/store/" },
    to: { path: rooms("flows", "handlers", "interceptors", "transport", "routes", "pages-route", ...ROOT) },
  },
  {
    name: "crypto-notify-below-flows",
    comment: "crypto and notify serve flows; they import no flow, handler, interceptor or transport.",
    from: { path: "^src/(crypto|notify)/" },
    to: { path: rooms("flows", "handlers", "interceptors", "transport", "routes", "pages-route", ...ROOT) },
  },
  {
    name: "flows-below-handlers",
    comment:
      "A flow is called by handlers and routes; it imports no handler, route, interceptor or " +
      "transport (what it needs of the request arrives as an argument typed in src/domain).",
    from: { path: "^src/flows/" },
    to: { path: rooms("handlers", "interceptors", "transport", "routes", "pages-route", ...ROOT) },
  },
  {
    name: "handlers-below-transport",
    comment: "Handlers map proto ⇄ flow; they import no transport, route or front door.",
    from: { path: "^src/handlers/" },
    to: { path: rooms("transport", "routes", "pages-route", ...ROOT) },
  },
  {
    name: "interceptors-below-transport",
    comment: "Interceptors wrap handlers; they import no handler, route or transport.",
    from: { path: "^src/interceptors/" },
    to: { path: rooms("handlers", "transport", "routes", "pages-route", ...ROOT) },
  },
  {
    name: "routes-below-root",
    comment: "HTTP route handlers (src/routes) sit beside handlers: no handler, front door or root.",
    from: { path: "^src/(routes|pages-route)/" },
    to: { path: rooms("handlers", ...ROOT) },
  },
  {
    name: "transport-is-machinery",
    comment:
      "src/transport carries bytes to a handler; it calls no flow, repository or handler itself. " +
      "An HTTP route that calls a flow lives in src/routes.",
    from: { path: "^src/transport/" },
    to: { path: rooms("flows", "handlers", "store", "routes", "pages-route", ...ROOT) },
  },
  {
    name: "entities-stay-in-store",
    comment: "Only src/store queries tables: no entity outside it (repositories return domain objects).",
    from: { path: "^src/", pathNot: "^src/store/" },
    to: { path: "^src/store/entities/" },
  },
  {
    name: "cli-no-handlers",
    comment: "The CLI is a client of the API: it imports no handler (nor their mappers).",
    from: { path: "^src/cli(/|\\.ts$)" },
    to: { path: "^src/handlers/" },
  },
  {
    name: "pages-are-browser-code",
    comment: "src/pages runs in the browser: it imports only src/pages, src/i18n and gen.",
    from: { path: "^src/pages/" },
    to: { path: "^(src|gen)/", pathNot: "^(src/pages/|src/i18n/|gen/)" },
  },
  {
    name: "pages-share-through-shared",
    comment: "One page area (auth, account) uses another's code only once it moved to src/pages/shared.",
    from: { path: "^src/pages/(auth|account)/" },
    to: { path: "^src/pages/", pathNot: ["^src/pages/shared/", "^src/pages/bot-check/", "^src/pages/$1/"] },
  },
  {
    name: "node-code-imports-no-pages",
    comment: "The service never imports browser code (src/pages-route serves its bundles).",
    from: { path: "^src/", pathNot: "^src/pages/" },
    to: { path: "^src/pages/" },
  },
];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: rules.map((rule) => ({ severity: "error", ...rule })),
  options: {
    includeOnly: "^(src|gen)/",
    exclude: { path: "\\.json$" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".js"],
    },
    skipAnalysisNotInRules: true,
    cache: false,
  },
};
