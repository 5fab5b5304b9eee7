import type { FlowDeps } from "../flows/deps.js";
import type { PlainRoute } from "../transport/http-handler.js";
import { serveAccountPage } from "./account-pages.js";
import { loadPageAssets, type PageAssets } from "./assets.js";
import { choosePageLanguage } from "./language.js";
import { answerInWords } from "./message.js";
import { PROJECT_PAGE_PATH, serveProjectPage } from "./project-pages.js";
import { pageTranslator } from "./words.js";

const ASSET_PATH = /^\/assets\/([a-z]+(?:-[a-z]+)?\.(?:js|css))$/;
/** The pages' folder itself: its entry is the sign-in page. */
const PAGES_ROOT = /^\/v1\/auth\/(lp_[0-9a-z]{26})\/?$/;

/**
 * The hosted pages' GET routes (docs/pages.md): `/` (account pages), `/v1/auth/{login_id}/{page}`
 * (project pages) and `/assets/…` (their bundles). Undefined for any other path.
 */
export function pageRoutes(
  deps: FlowDeps,
  assets: PageAssets = loadPageAssets(),
): (path: string) => PlainRoute | undefined {
  if (!assets.ready)
    deps.logger.warn(
      "the hosted pages are not built (dist/pages is missing): run `npm run build`; the pages answer 503 until then",
    );
  const unbuilt: PlainRoute = async (req, res) => {
    const speech = choosePageLanguage(urlOf(req.url), req.headers["accept-language"]);
    const t = pageTranslator(speech.language);
    answerInWords(res, 503, t("server.unavailable"), t("server.notInstalled"), undefined, speech);
  };
  return (path) => {
    const asset = ASSET_PATH.exec(path);
    if (asset) {
      return async (req, res, record) => {
        if (assets.serve(asset[1], req, res)) return;
        const speech = choosePageLanguage(urlOf(req.url), req.headers["accept-language"]);
        const t = pageTranslator(speech.language);
        const text = t("server.noFileAt", { path, request: record.id });
        answerInWords(res, 404, t("server.noFile"), text, undefined, speech);
      };
    }
    if (path === "/")
      return assets.ready
        ? async (req, res) => serveAccountPage(deps, urlOf(req.url), res, req.headers["accept-language"])
        : unbuilt;
    const root = PAGES_ROOT.exec(path);
    if (root) {
      return async (req, res) => {
        const query = urlOf(req.url).search;
        res.writeHead(302, { location: `/v1/auth/${root[1]}/login${query}`, "content-length": 0 }).end();
      };
    }
    const page = PROJECT_PAGE_PATH.exec(path);
    if (page) {
      if (!assets.ready) return unbuilt;
      return (req, res) =>
        serveProjectPage(deps, page[1], page[2], urlOf(req.url), res, req.headers["accept-language"], req.headers.host);
    }
    return undefined;
  };
}

function urlOf(path: string | undefined): URL {
  return new URL(path ?? "/", "http://gatehouse");
}
