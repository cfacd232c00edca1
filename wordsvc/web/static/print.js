// Printing a document (docs/documents.md): the PDF fetched with the console's token (a private event's
// documents and the audit summary need it), then opened as a blob in a new tab for the browser's own
// print; where a pop-up is refused, saved as a file instead.

import { ApiError, el, t } from "./common.js";

// Fetches GET {eventPath}/documents/{kind}[?session=n] (eventPath: /events/{event}) and opens it; says what went
// wrong in `errorNode`.
export async function printDocument(token, eventPath, kind, { session = null, errorNode = null, button = null } = {}) {
  const query = session ? `?session=${encodeURIComponent(session)}` : "";
  const url = `${eventPath}/documents/${kind}${query}`;
  const event = decodeURIComponent(eventPath.split("/").pop());
  if (button) button.disabled = true;
  if (errorNode) errorNode.textContent = "";
  try {
    const headers = token ? { Authorization: `Bearer ${token}` } : {};
    const response = await fetch(url, { headers, cache: "no-store" });
    if (!response.ok) {
      let detail = String(response.status);
      try {
        detail = (await response.json()).detail || detail;
      } catch {
        // not a problem document: the status says enough
      }
      throw new ApiError(response.status, { detail });
    }
    const blob = URL.createObjectURL(await response.blob());
    const tab = window.open(blob, "_blank");
    if (!tab) {
      const save = el("a", { href: blob, download: `${event}-${kind}.pdf` });
      document.body.append(save);
      save.click();
      save.remove();
    }
    setTimeout(() => URL.revokeObjectURL(blob), 60_000); // the new tab has read it by then
  } catch (error) {
    if (errorNode) errorNode.textContent = t("print.failed", { detail: error.message });
  } finally {
    if (button) button.disabled = false;
  }
}

// A "print" button for `kind`: the text print.<kind>, data-print naming the document.
export function printButton(kind, attrs = {}) {
  return el("button", { type: "button", "data-print": kind, class: "quiet", ...attrs }, t(`print.${kind}`));
}
