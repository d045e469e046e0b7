// Browser tests of session 33's work (the second outside review of presenter mode): the legend,
// unfolded, lies across the picture and never over the strip's words.
import { test, assert } from "./harness.mjs";

/** Presenter mode's unfolded legend: its box, the picture's, the strip panels', the current
 * row's, and whether its entries all show without scrolling. */
const LEGEND = () => {
  const box = (el) => { const r = el.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const d = document.querySelector(".presenter .side > details.legend");
  return {
    open: d.open,
    legend: box(d),
    picture: box(document.querySelector(".presenter .timeline-scroller")),
    strip: [...document.querySelectorAll(".presenter .side > .explanation, .presenter .side > .verdict")].map(box),
    row: box(document.querySelector(".presenter .current-outline")),
    scrolls: d.scrollHeight > d.clientHeight + 1,
  };
};
const overlaps = (a, b) => a[0] < b[2] - 1 && b[0] < a[2] - 1 && a[1] < b[3] - 1 && b[1] < a[3] - 1;

export async function review33Tests(browser, base, shot) {
  await test(browser, "presenter mode's legend opens across the picture, clear of the strip and the current row, whole at a double write", async (page) => {
    for (const [id, step, w, h] of [
      ["naive-gc-pause", 5, 1280, 720],
      ["consensus-session-suspended", 108, 1280, 720],
      ["redlock-gc-pause", 87, 1366, 768],
      ["redlock-gc-pause", 87, 1920, 1080],
    ]) {
      await page.setViewportSize({ width: w, height: h });
      await page.goto(`${base}index.html?r33legend${w}${id}#scenario=${id}&step=${step}&present=1`);
      await page.waitForSelector(".presenter .current-outline");
      await page.waitForTimeout(700);
      await page.click(".presenter .side > details.legend > summary");
      await page.waitForTimeout(300);
      const m = await page.evaluate(LEGEND);
      const where = `${id} #${step} at ${w}x${h}: ${JSON.stringify(m)}`;
      assert(m.open, `${where}: the legend did not open`);
      // A review found it over the sentence being read out (naive-gc-pause #5) and over the verdict.
      for (const panel of m.strip) assert(!overlaps(m.legend, panel), `${where}: the legend covers the strip`);
      assert(!overlaps(m.legend, m.row), `${where}: the legend covers the current row`);
      // Across the picture (it was 735 px wide at the strip's end, a third of it empty).
      assert(m.legend[2] - m.legend[0] >= 0.95 * (m.picture[2] - m.picture[0]), `${where}: the legend is not across the picture`);
      assert(m.legend[1] >= m.picture[1] - 1 && m.legend[3] <= m.picture[3] + 1, `${where}: the legend leaves the picture`);
      // At the climax of consensus-session-suspended it was a 140 px box showing a row and a half.
      assert(!m.scrolls, `${where}: the legend scrolls`);
      if (w === 1280) await shot(page, `presenter-legend-across-${id}-${step}-${w}x${h}`);
    }
  });
}
