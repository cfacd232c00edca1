// A list of players as the director pastes it or picks it as a CSV file, made into the lines of
// POST /events/{e}/players (docs/pages.md, "The tournament"); and a name folded as the service folds it, to
// show which two names a look-alike warning means. Pure: no page, no request.
//
// Pasted: one player a line, "name", "name<sep>club" or "name<sep>club<sep>rating id", where <sep> is a tab
// if the line holds one (what a spreadsheet's copied cells give), else ";" if it holds one, else ",". Blank
// lines are skipped; every field is trimmed; an empty club or rating id is none.
// A CSV file: UTF-8 (a byte-order mark is dropped), a header row naming the columns (name, and optionally
// club and rating_id, in any order), fields quoted as RFC 4180 quotes them ("Martin, Zoë"; "" for a quote).

// The lines of a pasted list: [{line, name, club?, rating_id?}], `line` counted from 1 in the text.
export function pastedLines(text) {
  const out = [];
  text.split(/\r\n|\r|\n/).forEach((raw, index) => {
    if (!raw.trim()) return;
    const sep = raw.includes("\t") ? "\t" : raw.includes(";") ? ";" : ",";
    const [name, club, rating] = raw.split(sep).map((field) => field.trim());
    out.push(lineOf(index + 1, name, club, rating));
  });
  return out;
}

// The rows of a CSV file's text as pasted lines would give them, `line` its line in the file; a header without a
// "name" column is an Error whose message is "no_name_column" (the page says it in its language).
export function csvLines(text) {
  const rows = csvRows(text.replace(/^\uFEFF/, ""));
  const header = (rows.shift()?.cells || []).map((cell) => cell.trim().toLowerCase());
  const column = (name) => header.indexOf(name);
  if (column("name") < 0) throw new Error("no_name_column");
  const at = (cells, name) => (column(name) < 0 ? "" : (cells[column(name)] || "").trim());
  return rows.filter((row) => row.cells.some((cell) => cell.trim())).map((row) => lineOf(row.line, at(row.cells, "name"), at(row.cells, "club"), at(row.cells, "rating_id")));
}

// The same lines as tab-separated text, one a line: what the page puts in the paste box from a CSV file, for the
// director to read before registering them.
export function linesText(lines) {
  return lines.map((p) => [p.name, p.club || "", p.rating_id || ""].join("\t").replace(/\t+$/, "")).join("\n");
}

function lineOf(line, name, club, rating) {
  const out = { line, name: name || "" };
  if (club) out.club = club;
  if (rating) out.rating_id = rating;
  return out;
}

// RFC 4180 rows: [{line, cells}], `line` the file line the row starts on. A quoted field may hold the separator,
// a quote written twice, and line breaks.
function csvRows(text) {
  const rows = [];
  let cells = [];
  let cell = "";
  let quoted = false;
  let line = 1;
  let start = 1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else {
        if (ch === "\n") line++;
        cell += ch;
      }
    } else if (ch === '"' && cell === "") quoted = true;
    else if (ch === ",") {
      cells.push(cell);
      cell = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      rows.push({ line: start, cells: [...cells, cell] });
      [cells, cell] = [[], ""];
      start = ++line;
    } else cell += ch;
  }
  if (cell || cells.length) rows.push({ line: start, cells: [...cells, cell] });
  return rows;
}

// Latin letters that are no base letter plus marks, spelled out as wordsvc.core.names.LETTERS_SPELLED_OUT does
// (with ß and œ, which the service's case folding writes out).
const SPELLED_OUT = { þ: "th", ð: "d", æ: "ae", ø: "o", ł: "l", đ: "d", ħ: "h", ı: "i", ŧ: "t", ŋ: "ng", ĸ: "q", ß: "ss", œ: "oe" };

// `name` folded as the service folds a name (wordsvc.core.names.folded_name): compatibility letters folded, case
// and accents off, those letters spelled out, spaces squeezed. Two names folded alike are the ones a
// `names_similar` warning is about.
export function foldedName(name) {
  return name
    .normalize("NFKC")
    .toLowerCase()
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[þðæøłđħıŧŋĸßœ]/g, (ch) => SPELLED_OUT[ch])
    .split(/\s+/)
    .filter(Boolean)
    .join(" ");
}
