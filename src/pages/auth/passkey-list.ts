// The security page's list of passkeys: each with its name, when it was added and last used,
// and whether it syncs; "Rename" and "Delete" open a small form in its place, one at a time.
import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import type { Passkey } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import { actionButton, h, paragraph } from "../shared/dom.js";
import { Form } from "../shared/form.js";
import type { Page } from "./context.js";
import { asUser } from "./passkeys.js";

/** Draws the security view again, saying what changed. */
type Changed = (message: string) => Promise<void>;

const DAY = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

export function passkeyList(page: Page, token: string, passkeys: Passkey[], changed: Changed): HTMLUListElement {
  const list = h("ul", { class: "passkeys", "aria-label": "Your passkeys" });
  // The item whose form is open goes back to its facts when another opens.
  let closeOpen: (() => void) | undefined;
  const open = (close: () => void) => {
    closeOpen?.();
    closeOpen = close;
  };
  for (const passkey of passkeys) {
    const item = h("li", { class: "passkey" });
    const showFacts = (focus?: "rename" | "delete") => {
      const rename = actionButton("Rename", () => showRename(), {
        class: "secondary",
        "aria-label": `Rename ${passkey.name}`,
      });
      const remove = actionButton("Delete", () => showDelete(), {
        class: "secondary",
        "aria-label": `Delete ${passkey.name}`,
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
        fields: [{ name: "name", label: "New name", maxlength: 100, value: passkey.name }],
        buttons: [{ label: "Save" }, { label: "Cancel", value: "cancel", secondary: true }],
      });
      form.onSubmit(async (action) => {
        if (action === "cancel") return showFacts("rename");
        if (!form.requireFilled("name")) return;
        await asUser(page, token).renamePasskey({ id: passkey.id, name: form.value("name") });
        await changed("Passkey renamed.");
      });
      item.replaceChildren(form.element);
      form.input("name").select();
    };
    const showDelete = () => {
      open(() => showFacts());
      const form = new Form({
        id: "delete-passkey",
        fields: [],
        buttons: [{ label: "Delete passkey" }, { label: "Cancel", value: "cancel", secondary: true }],
      });
      form.onSubmit(async (action) => {
        if (action === "cancel") return showFacts("delete");
        await asUser(page, token).deletePasskey({ id: passkey.id });
        await changed("Passkey deleted.");
      });
      const question = paragraph(
        `Delete “${passkey.name}”? You will no longer be able to sign in with it. The device may still list it until you remove it there too.`,
        { tabindex: "-1" },
      );
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
    `Added ${day(passkey.createdAt)}`,
    passkey.lastUsedAt ? `last used ${day(passkey.lastUsedAt)}` : "never used",
    passkey.backedUp ? "synced across your devices" : "not synced: on one device only",
  ].join(" · ");
}

function day(at: Timestamp | undefined): string {
  return at ? DAY.format(timestampDate(at)) : "";
}
