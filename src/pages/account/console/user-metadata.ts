// A user's `metadata` (the user may write it too) and `app_metadata` (administrators only; it
// travels in the access tokens) as formatted JSON, edited in place. UpdateUser merges keys
// shallowly, so a key removed here is sent as null: what is saved is what the box shows.
import type { JsonObject } from "@bufbuild/protobuf";
import { t } from "../../shared/words.js";
import { ConsoleForm } from "./form.js";
import { part } from "./ui.js";
import type { UserPage } from "./user-detail.js";

const FIELDS = [
  ["metadata", "console.user.metadata", "console.user.metadataHint"],
  ["app_metadata", "console.user.appMetadata", "console.user.appMetadataHint"],
] as const;

export function userMetadata(page: UserPage): Promise<Node[]> {
  const stored: Record<string, JsonObject> = {
    metadata: page.user.metadata ?? {},
    app_metadata: page.user.appMetadata ?? {},
  };
  const form = new ConsoleForm("user-metadata", t("console.user.saveMetadata"));
  for (const [name, words, hint] of FIELDS) {
    form.add(form.text(name, t(words), { lines: true, value: JSON.stringify(stored[name], null, 2), hint: t(hint) }));
    const box = form.control(name);
    box.setAttribute("rows", String(Math.min(12, Math.max(3, box.value.split("\n").length))));
    box.classList.add("json");
  }
  form.onSubmit(async () => {
    const changes: Record<string, JsonObject> = {};
    for (const [name, words] of FIELDS) {
      const typed = objectIn(form.value(name) || "{}");
      if (!typed) {
        form.fail(t("console.user.notObject", { field: t(words) }), name);
        return;
      }
      changes[name] = patch(stored[name] ?? {}, typed);
    }
    await page.auth.updateUser({ id: page.user.id, metadata: changes.metadata, appMetadata: changes.app_metadata });
    await page.redraw(t("console.saved"));
  });
  return Promise.resolve([part("user-metadata", t("console.user.metadataTitle"), form.element)]);
}

function objectIn(text: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as JsonObject) : undefined;
  } catch {
    return undefined;
  }
}

/** The merge that turns `before` into `after`: `after`'s keys, and null for each key it dropped. */
function patch(before: JsonObject, after: JsonObject): JsonObject {
  const merged: JsonObject = { ...after };
  for (const key of Object.keys(before)) if (!(key in after)) merged[key] = null;
  return merged;
}
