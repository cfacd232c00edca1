// A list too long for its box, shown a page at a time (docs/pages.md, "The display"): as many of its items as
// the box's height holds make a page, measured on the screen it is shown on, so a taller screen shows more
// rows; `turn()` shows the next page (after the last, the first). Items side by side (a grid's row) stay on
// one page. The box is expected to keep its height whatever it holds (the page's layout gives it one).

// A pager of `box`'s items, `items()` (every item, in order); `label(page, pages)` is told what is shown.
export function pager(box, items, label) {
  let starts = [0]; // the index of each page's first item
  let page = 0;

  // Measures every item afresh (after a render, or when the screen changed size) and shows the same page, or
  // the last if there are fewer now.
  function layout() {
    const all = items();
    for (const item of all) item.hidden = false;
    starts = breaks(all, box.getBoundingClientRect().bottom);
    page = Math.min(page, starts.length - 1);
    show(all);
  }

  function turn() {
    page = (page + 1) % starts.length;
    show(items());
  }

  function show(all) {
    const end = page + 1 < starts.length ? starts[page + 1] : all.length;
    all.forEach((item, i) => {
      item.hidden = i < starts[page] || i >= end;
    });
    label(page + 1, starts.length);
  }

  return { layout, turn };
}

// Where each page starts: rows of items (those whose tops line up) are added to a page while they fit between
// the first item's top and `bottom`; every page has at least one row.
function breaks(all, bottom) {
  const rows = [];
  for (const [i, item] of all.entries()) {
    const { top, bottom: end } = item.getBoundingClientRect();
    const last = rows[rows.length - 1];
    if (last && Math.abs(last.top - top) < 1) last.bottom = Math.max(last.bottom, end);
    else rows.push({ first: i, top, bottom: end });
  }
  if (!rows.length) return [0];
  const room = bottom - rows[0].top;
  const starts = [0];
  let pageTop = rows[0].top;
  for (const row of rows) {
    if (row.first > 0 && row.bottom - pageTop > room) {
      starts.push(row.first);
      pageTop = row.top;
    }
  }
  return starts;
}
