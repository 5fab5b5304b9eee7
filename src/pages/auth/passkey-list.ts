// The security page's list of passkeys: each with its name, when it was added and last used,
// and whether it syncs; "Rename" and "Delete" open a small form in its place, one at a time.
import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import type { Passkey } from "../../../gen/gatehouse/auth/v1/common_pb.js";
import { actionButton, h, paragraph } from "../shared/dom.js";
import { Form } from "../shared/form.js";
import type { Page } from "./context.js";
import { asUser } from "./passkeys.js";
import { t } from "../shared/words.js";

/** Draws the security view again, saying what changed. */
type Changed = (message: string) => Promise<void>;

export function passkeyList(page: Page, token: string, passkeys: Passkey[], changed: Changed): HTMLUListElement {
  const list = h("ul", { class: "passkeys", "aria-label": t("security.yours") });
  // The item whose form is open goes back to its facts when another opens.
  let closeOpen: (() => void) | undefined;
  const open = (close: () => void) => {
    closeOpen?.();
    closeOpen = close;
  };
  for (const passkey of passkeys) {
    const item = h("li", { class: "passkey" });
    const showFacts = (focus?: "rename" | "delete") => {
      const rename = actionButton(t("passkeys.rename"), () => showRename(), {
        class: "secondary",
        "aria-label": t("passkeys.renameNamed", { name: passkey.name }),
      });
      const remove = actionButton(t("passkeys.delete"), () => showDelete(), {
        class: "secondary",
        "aria-label": t("passkeys.deleteNamed", { name: passkey.name }),
      });
      item.replaceChildren(
        h("p", { class: "passkey-name" }, passkey.name),
        h("p", { class: "passkey-facts" }, facts(passkey)),
        h("div", { class: "passkey-actions" }, rename, remove),
      );
      if (focus) (focus === "rename" ? rename : remove).focus();
    };
    const showRename = () => {
      open(() => showFacts());
      const form = new Form({
        id: "rename-passkey",
        fields: [{ name: "name", label: t("passkeys.newName"), maxlength: 100, value: passkey.name }],
        buttons: [{ label: t("common.save") }, { label: t("common.cancel"), value: "cancel", secondary: true }],
      });
      form.onSubmit(async (action) => {
        if (action === "cancel") return showFacts("rename");
        if (!form.requireFilled("name")) return;
        await asUser(page, token).renamePasskey({ id: passkey.id, name: form.value("name") });
        await changed(t("passkeys.renamed"));
      });
      item.replaceChildren(form.element);
      form.input("name").select();
    };
    const showDelete = () => {
      open(() => showFacts());
      const form = new Form({
        id: "delete-passkey",
        fields: [],
        buttons: [
          { label: t("passkeys.deletePasskey") },
          { label: t("common.cancel"), value: "cancel", secondary: true },
        ],
      });
      form.onSubmit(async (action) => {
        if (action === "cancel") return showFacts("delete");
        await asUser(page, token).deletePasskey({ id: passkey.id });
        await changed(t("passkeys.deleted"));
      });
      const question = paragraph(t("passkeys.deleteQuestion", { name: passkey.name }), { tabindex: "-1" });
      item.replaceChildren(question, form.element);
      question.focus();
    };
    showFacts();
    list.append(item);
  }
  return list;
}

function facts(passkey: Passkey): string {
  return [
    t("passkeys.added", { added: dateOf(passkey.createdAt) }),
    passkey.lastUsedAt ? t("passkeys.lastUsed", { used: dateOf(passkey.lastUsedAt) }) : t("passkeys.neverUsed"),
    t(passkey.backedUp ? "passkeys.synced" : "passkeys.notSynced"),
  ].join(" · ");
}

function dateOf(at: Timestamp | undefined): Date {
  return at ? timestampDate(at) : new Date(0);
}
