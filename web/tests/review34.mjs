// Browser tests of session 34's work: the last step's window stops between lines under the lane
// names, and the lease chart's pinned time axis hides the tick words its names column would cut.
import { test, assert, present, frames } from "./harness.mjs";

/** The words drawn in the timeline's window that the band of lane names cuts through (their
 * tops under it, their bottoms below it), with the band's bottom and the scroll. */
const BAND_CUT = () => {
  const sc = document.querySelector(".timeline-scroller");
  const s = sc.getBoundingClientRect();
  const band = document.querySelector(".lane-heads")?.getBoundingClientRect().bottom ?? s.top;
  const cut = [];
  for (const t of sc.querySelectorAll(".page svg text")) {
    if (t.closest("[data-cut]") || getComputedStyle(t).visibility === "hidden") continue;
    const r = t.getBoundingClientRect();
    if (r.width === 0 || r.right < s.left || r.left > s.right) continue;
    if (r.top < band - 1 && r.bottom > band + 1) cut.push(t.textContent.trim());
  }
  return { band, top: sc.scrollTop, cut };
};

/** The pinned time axis's tick words shown in an embed's lease chart that cross its pinned row
 * names' right edge. */
const AXIS_CUT = () => {
  const s = document.querySelector(".timeline-scroller.lease");
  const names = s.querySelector(".lease-pin > svg")?.getBoundingClientRect();
  const axis = s.querySelector(".lease-axis");
  const shown = axis && getComputedStyle(axis).display !== "none";
  const cut = [];
  for (const t of s.querySelectorAll(".lease-axis text")) {
    if (getComputedStyle(t).visibility === "hidden" || !names) continue;
    const r = t.getBoundingClientRect();
    if (r.left < names.right - 1 && r.right > names.right + 1) cut.push(t.textContent.trim());
  }
  return { shown, cut, ticks: s.querySelectorAll(".lease-axis text").length };
};

export async function review34Tests(browser, base, shot) {
  // The last step's window went to the picture's very end, and at these sizes that edge cut a
  // label in half under the lane names (a review: "(integer) 1: deleted" at 1280x720).
  for (const [id, width, height] of [
    ["fenced-gc-pause", 1280, 720],
    ["naive-gc-pause", 1920, 1080],
    ["consensus-session-suspended", 1024, 768],
  ]) {
    await test(browser, `presenting ${id} at ${width}x${height}, the last step cuts no label under the lane names`, async (page) => {
      await present(page, base, id, { width, height, tag: "r34end" });
      await page.keyboard.press("End");
      await page.waitForTimeout(700);
      await frames(page);
      const m = await page.evaluate(BAND_CUT);
      assert(m.cut.length === 0, `words cut by the lane names' band: ${JSON.stringify(m)}`);
      // Reached by stepping, the end is the same.
      await page.keyboard.press("ArrowLeft");
      await page.waitForTimeout(400);
      await page.keyboard.press("ArrowRight");
      await page.waitForTimeout(700);
      await frames(page);
      const again = await page.evaluate(BAND_CUT);
      assert(again.cut.length === 0 && Math.abs(again.top - m.top) < 2, `stepped onto the end: ${JSON.stringify(again)} (End: ${m.top})`);
      await shot(page, `r34-end-${id}-${width}x${height}`);
    });
  }

  await test(browser, "an 800 px embed's lease chart, zoomed in, shows no tick word of its pinned time axis cut by the row names", async (page) => {
    await page.setViewportSize({ width: 800, height: 450 });
    await page.goto(`${base}embed.html?r34axis#scenario=fenced-gc-pause&step=41&controls=minimal&chart=lease`);
    await page.waitForSelector(".timeline-scroller.lease .page > svg");
    await page.waitForTimeout(600);
    const m = await page.evaluate(AXIS_CUT);
    assert(m.shown && m.ticks > 0, `the pinned axis is not shown: ${JSON.stringify(m)}`);
    assert(m.cut.length === 0, `tick words cut by the names column: ${JSON.stringify(m)}`);
    // Scrolled by hand to the chart's start, every tick shows again.
    await page.evaluate(() => { document.querySelector(".timeline-scroller.lease").scrollLeft = 0; });
    await page.waitForTimeout(300);
    const start = await page.evaluate(AXIS_CUT);
    assert(start.cut.length === 0, `at the start: ${JSON.stringify(start)}`);
    await shot(page, "r34-lease-axis-800");
  });
}
