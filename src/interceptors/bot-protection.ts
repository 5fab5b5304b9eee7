import type { Interceptor } from "@connectrpc/connect";
import type { DescField, DescMessage } from "@bufbuild/protobuf";
import type { BotCheck } from "../flows/auth/bot-check.js";
import { kProject } from "./context.js";

/** The request field that carries a solved bot challenge (auth.proto). */
const PROOF_FIELD = "bot_proof";

// A project's bot protection, in one place: every RPC whose request declares `bot_proof`
// (Signup, SendOtp, SendMagicLink, RequestPasswordReset) needs a solved challenge when the
// project has `bot_protection` and the caller is public: a publishable key, or the hosted
// pages' credential (no key at all). A secret key lives on a server the project runs, which
// answers for its own traffic; so does a project that never turned the setting on.
//
// It runs after the credential interceptor (which names the project and the key) and after
// validation, so a request refused for its input does not spend its proof; and before the
// handler, so a refused request sends nothing and counts against no send budget.
export function botProtectionInterceptor(bot: Pick<BotCheck, "spend">): Interceptor {
  return (next) => async (req) => {
    if (req.stream) return next(req);
    const field = proofFieldOf(req.method.input);
    const principal = req.contextValues.get(kProject);
    // A secret key's server and the console's member are not the bots this keeps out.
    const trusted = principal?.apiKey?.kind === "secret" || principal?.console === true;
    if (!field || !principal?.project.botProtection || trusted) return next(req);
    const proof = (req.message as unknown as Record<string, unknown>)[field.localName];
    await bot.spend(
      principal.project,
      typeof proof === "string" ? proof : "",
      `${req.method.parent.typeName}/${req.method.name}`,
    );
    return next(req);
  };
}

const fieldByMessage = new Map<string, DescField | null>();

function proofFieldOf(desc: DescMessage): DescField | undefined {
  let field = fieldByMessage.get(desc.typeName);
  if (field === undefined) {
    field = desc.fields.find((f) => f.name === PROOF_FIELD && f.fieldKind === "scalar") ?? null;
    fieldByMessage.set(desc.typeName, field);
  }
  return field ?? undefined;
}
