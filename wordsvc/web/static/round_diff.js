// How a stored play differs from the one typed in this tab, player by player, in words (docs/pages.md,
// "Two tabs"): "ana laid QUIZ, here you have QUIT". Cards are shown as read on the slip, in capitals and
// without brackets, unless only the brackets differ.

import { compact, t } from "./common.js";

// Lines for each difference between `stored` (a stored body: faces) and `here` (play(): words as typed),
// in seat order of `players`; `keys` names the message of each kind: {words, unused, out_there, out_here}.
export function differences(players, stored, here, keys) {
  const cards = (faces) => faces.map((face) => face.toUpperCase()).join("");
  const read = (text) => text.replace(/[()]/g, "").toUpperCase();
  const nothing = t("console.nothing");
  const lines = [];
  for (const name of players) {
    const a = stored.players.find((p) => p.name === name) || { words: [], unused: [], went_out: false };
    const b = here.players.find((p) => p.name === name) || { words: [], unused: "", went_out: false };
    if (a.words.map(compact).join(" ") !== b.words.join(" ").toLowerCase()) {
      const storedWords = a.words.map(cards).join(" ") || nothing;
      const hereWords = b.words.map(read).join(" ") || nothing;
      lines.push(t(keys.words, { player: name, stored: storedWords, here: hereWords === storedWords ? b.words.join(" ").toUpperCase() : hereWords }));
    }
    if (compact(a.unused) !== String(b.unused).toLowerCase()) lines.push(t(keys.unused, { player: name, stored: cards(a.unused) || nothing, here: read(String(b.unused)) || nothing }));
    if (Boolean(a.went_out) !== Boolean(b.went_out)) lines.push(t(a.went_out ? keys.out_there : keys.out_here, { player: name }));
  }
  return lines;
}
