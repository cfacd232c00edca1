// Each word's verdict as it is typed (POST /validate under the event's ruleset and language, debounced) and
// its mark beside the field: "✓ valid", "✗ not valid", or "? cannot check" while the service cannot be
// reached: a word nobody judged is never marked "not valid" (docs/pages.md, "Outages").

import { el, t } from "./common.js";
import { call, isOnline, unreachable } from "./connection.js";
import { messageText, refusalMessage } from "./slip_messages.js";

const DEBOUNCE_MS = 250;
const MARKS = { ok: "console.valid", no: "console.invalid", unknown: "console.cannot_check" };
const timers = new Map();
const verdicts = new Map(); // seat -> [{word, state: ok | no | unknown, points, reason}] of the words now in its field

export function clearVerdicts() {
  for (const timer of timers.values()) clearTimeout(timer);
  timers.clear();
  verdicts.clear();
}

// Judges seat i's words after `delay`: `words()` gives them as they stand (read again when the answer
// comes: typed on since, the answer is dropped); `judge` is {ruleset, lang}.
export function askVerdicts(i, words, judge, delay = DEBOUNCE_MS) {
  clearTimeout(timers.get(i));
  timers.set(
    i,
    setTimeout(async () => {
      const sent = words();
      const unknown = () => sent.map((word) => ({ word, state: "unknown", points: null, reason: null }));
      if (!sent.length) verdicts.set(i, []);
      else if (!isOnline()) verdicts.set(i, unknown());
      else {
        try {
          const answer = await call("POST", "/validate", { body: { ...judge, words: sent } });
          if (sent.join(" ") !== words().join(" ")) return;
          verdicts.set(
            i,
            answer.body.verdicts.map((v) => ({ word: v.word, state: v.valid ? "ok" : "no", points: v.spellings.length ? v.spellings[0].points : null, reason: v.reasons[0]?.message })),
          );
        } catch (error) {
          if (sent.join(" ") !== words().join(" ")) return;
          verdicts.set(i, unreachable(error) ? unknown() : sent.map((word) => ({ word, state: "no", points: null, reason: messageText(refusalMessage(error)) })));
        }
      }
      renderVerdicts(i);
    }, delay),
  );
}

export function renderVerdicts(i) {
  const list = document.getElementById(`verdicts-${i}`);
  if (!list) return;
  list.replaceChildren(
    ...(verdicts.get(i) || []).map((v) =>
      el("li", { class: v.state, title: v.reason || null }, `${v.word} ${t(MARKS[v.state])}${v.points === null ? "" : ` · ${t("console.points", { points: v.points })}`}`),
    ),
  );
}
