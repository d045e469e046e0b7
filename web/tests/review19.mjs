// Browser tests of session 19's work on issue 7: the current step's outline dips under the note
// of the line above rather than being hidden by it and holds its own row's late-placed words,
// and the window following the steps down stops between rows, not through one.
import { test, assert, ready } from "./harness.mjs";

/// The current step's outline as screen points (the middle of its stroke).
const OUTLINE = () => {
  const f = document.querySelector(".current-frame");
  const m = f.getScreenCTM();
  return f.getAttribute("d").replace("Z", "").trim().split(/\s*[ML]/).filter(Boolean)
    .map((p) => p.trim().split(/\s+/).map(Number))
    .map(([x, y]) => new DOMPoint(x, y).matrixTransform(m));
};

export async function review19Tests(browser, base, shot) {
  await test(browser, "the current step's outline dips under the line above's note and holds its own row's words", async (page) => {
    await page.setViewportSize({ width: 1920, height: 1080 });
    // naive-gc-pause #17: "B holds the lock" (#16) hangs into the row, and its backing hid the
    // outline's top edge.
    await page.goto(`${base}index.html#scenario=naive-gc-pause&step=17&present=1`);
    await ready(page);
    await page.waitForTimeout(400);
    const under = await page.evaluate((outline) => {
      const pts = eval(outline)();
      const note = [...document.querySelectorAll(".page svg text")]
        .find((t) => t.textContent.trim() === "B holds the lock" && t.getBoundingClientRect().height > 0);
      // The note's box: the rect drawn just before its words.
      const box = note.previousElementSibling.getBoundingClientRect();
      const mid = (box.left + box.right) / 2;
      // The outline's horizontal edges over the note's middle, above the row's line.
      const edges = pts.slice(0, -1).map((p, i) => [p, pts[i + 1]])
        .filter(([a, b]) => Math.abs(a.y - b.y) < 0.01 && Math.min(a.x, b.x) < mid && Math.max(a.x, b.x) > mid)
        .map(([a]) => a.y);
      return { top: Math.min(...edges), noteBottom: box.bottom, half: 1.5 * document.querySelector(".current-frame").getScreenCTM().a };
    }, OUTLINE.toString());
    assert(under.top - under.half >= under.noteBottom - 0.5, `the outline's top under 'B holds the lock': ${JSON.stringify(under)}`);
    await shot(page, "outline-dips-under-note-naive-gc-pause-17-1920x1080");

    // redlock-split-votes #33: the arrival's words "… (sent #4)" are the row's own; the outline
    // ran through them.
    await page.goto(`${base}index.html#scenario=redlock-split-votes&step=33&present=1`);
    await ready(page);
    await page.waitForTimeout(400);
    const own = await page.evaluate((outline) => {
      const pts = eval(outline)();
      const words = [...document.querySelectorAll(".page svg text")]
        .find((t) => t.textContent.includes("(sent #4)") && t.getBoundingClientRect().height > 0);
      const box = words.previousElementSibling.getBoundingClientRect();
      const mid = (box.left + box.right) / 2;
      const edges = pts.slice(0, -1).map((p, i) => [p, pts[i + 1]])
        .filter(([a, b]) => Math.abs(a.y - b.y) < 0.01 && Math.min(a.x, b.x) < mid && Math.max(a.x, b.x) > mid)
        .map(([a]) => a.y);
      return { top: Math.min(...edges), wordsTop: box.top, half: 1.5 * document.querySelector(".current-frame").getScreenCTM().a };
    }, OUTLINE.toString());
    assert(own.top + own.half <= own.wordsTop + 0.5, `the outline's top over '(sent #4)': ${JSON.stringify(own)}`);
    await shot(page, "outline-holds-own-words-redlock-split-votes-33-1920x1080");
  });

  await test(browser, "stepping down a run in presenter mode, the window stops between rows, not through one", async (page) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${base}index.html#scenario=fenced-gc-pause&step=1&present=1`);
    await ready(page);
    await page.waitForTimeout(400);
    const cut = [];
    for (let n = 2; n <= 25; n++) {
      await page.keyboard.press("ArrowRight");
      await page.waitForTimeout(n === 25 ? 1200 : 250);
      const seen = await page.evaluate(() => {
        const s = document.querySelector(".timeline-scroller");
        const edge = s.firstElementChild.getBoundingClientRect().bottom;
        // The step column's words: a row cut by the lane names shows part of its step and time.
        const steps = [...document.querySelectorAll(".page svg text")]
          .filter((t) => /^#\d/.test(t.textContent.trim()) && t.getBoundingClientRect().height > 0)
          .map((t) => { const r = t.getBoundingClientRect(); return { text: t.textContent.trim(), top: r.top, bottom: r.bottom }; });
        return { scrolled: s.scrollTop, edge, cut: steps.filter((r) => r.top < edge - 2 && r.bottom > edge + 2).map((r) => r.text) };
      });
      if (seen.scrolled > 0 && seen.cut.length) cut.push({ step: n, ...seen });
    }
    assert(cut.length === 0, `rows cut by the lane names: ${JSON.stringify(cut)}`);
    await shot(page, "window-between-rows-fenced-gc-pause-25-1280x720");
  });

  await test(browser, "on a phone the lease chart's legend and verdict are one column, wrapped to the window, readable whole", async (page) => {
    await page.setViewportSize({ width: 375, height: 667 });
    for (const step of [22, 38]) {
      await page.goto(`${base}index.html#scenario=naive-gc-pause&step=${step}&chart=lease`);
      await page.waitForSelector(".timeline-scroller.lease .lease-bands svg");
      await page.waitForTimeout(500);
      const seen = await page.evaluate(() => {
        const s = document.querySelector(".timeline-scroller.lease");
        const win = s.getBoundingClientRect();
        // The legend and verdict band the page keeps in view (a copy of the chart's own words).
        const words = [...s.querySelectorAll(".lease-bands svg text")]
          .filter((t) => t.getBoundingClientRect().width > 0)
          .map((t) => { const r = t.getBoundingClientRect(); return { text: t.textContent.trim(), left: r.left - win.left, right: r.right - win.left }; });
        return { width: s.clientWidth, sideways: s.scrollLeft, words };
      });
      const legend = seen.words.filter((w) => !w.text.startsWith("Who") && /holds the lock|is paused|overlap|So far|writes accepted/.test(w.text));
      assert(legend.length >= 4, `step ${step}: the legend and verdict's words: ${JSON.stringify(seen)}`);
      const out = legend.filter((w) => w.left < -0.5 || w.right > seen.width + 0.5);
      assert(seen.sideways > 0 && out.length === 0, `step ${step}: words out of the ${seen.width} px window: ${JSON.stringify(out)}`);
      await shot(page, `lease-phone-legend-one-column-naive-gc-pause-${step}`);
    }
  });

  await test(browser, "the pinned step column is opaque to its edge, over the lanes from their headers down", async (page) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${base}index.html#scenario=redlock-gc-pause&step=40&present=1`);
    await ready(page);
    await page.waitForTimeout(600);
    const seen = await page.evaluate(() => {
      const s = document.querySelector(".timeline-scroller");
      const box = document.querySelector(".pin-box");
      const css = getComputedStyle(box);
      return { scrolled: s.hasAttribute("data-scrolled"), left: s.scrollLeft, background: css.backgroundColor, image: css.backgroundImage, mask: css.maskImage || css.webkitMaskImage };
    });
    // Words its edge would cut are hidden whole (review26.mjs); words wholly under it are covered,
    // not faded in: masked only above the lanes' headers.
    assert(seen.scrolled && seen.left > 0, `the run scrolled sideways: ${JSON.stringify(seen)}`);
    assert(seen.background === "rgb(255, 255, 255)" && seen.image === "none", `the column's background: ${JSON.stringify(seen)}`);
    assert(/linear-gradient/.test(seen.mask), `the column's top: ${JSON.stringify(seen)}`);
    await shot(page, "pinned-column-redlock-gc-pause-40-1280x720");
  });
}
