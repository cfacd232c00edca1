// What the lobby says when the service refuses (docs/pages.md, "The lobby (/play)"): a sentence in the page's
// language chosen by the problem's code (docs/problems.md) and the field it names, never the service's own English
// detail, a field's path or a status number.

import { ApiError, t } from "./common.js";

// The codes a name can be refused with (wordsvc/schemas/common.py, `name_problem`).
const NAME_CODES = new Set(["invalid_name", "length_out_of_range", "control_characters", "mixed_scripts", "names_look_alike", "required"]);
// The clock's bounds: wordsvc/core/play/clocks.py's TURN_SECONDS, BANK_SECONDS (in minutes) and TURN_HOURS (a test holds
// them together). The form's fields take them as their min and max, and its refusal names them.
export const CLOCK_BOUNDS = { turn_min: 5, turn_max: 600, bank_max: 60, hours_min: 1, hours_max: 336 };
// The codes of a service that cannot answer now but will (503s).
const BUSY_CODES = new Set(["not_ready", "language_building", "overloaded", "out_of_descriptors", "too_many_connections", "too_many_streams"]);

// The sentence for `error` (an ApiError, or anything thrown): `name` is the name that was sent, when one was;
// `director`, whether the call was sent with the table's director token (a seat link issued), not as anyone.
export function problemText(error, { name = "", director = false } = {}) {
  if (!(error instanceof ApiError)) return t("lobby.problem.other");
  if (error.status === 0) return t("page.offline");
  const problem = error.problem || {};
  const code = problem.code;
  const fields = Object.keys(problem.errors || {});
  if (code === "open_events_exhausted") return t("lobby.problem.exhausted");
  if (error.status === 401 || code === "role_required") return t(director ? "lobby.problem.revoked" : "lobby.problem.closed");
  if (code === "name_taken") return t("lobby.problem.name_taken", { name });
  if (code === "table_full") return t("lobby.problem.full");
  if (code === "seat_taken") return t("lobby.problem.seat_taken");
  if (code === "not_hosted" || code === "event_not_found") return t("lobby.problem.gone");
  if (fields.includes("name") && error.entries().some((entry) => NAME_CODES.has(entry.code))) return t("lobby.problem.name");
  if (fields.some((field) => field.startsWith("clock"))) return t("lobby.problem.clock", CLOCK_BOUNDS);
  if (code === "player_count") return t("lobby.problem.seats");
  if (BUSY_CODES.has(code) || error.status === 503 || error.status === 429) return t("lobby.problem.busy");
  return t("lobby.problem.other");
}
