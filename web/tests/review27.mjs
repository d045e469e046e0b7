// Browser tests of session 27's work (a presenter's and a docs author's review: the lease chart
// in presenter mode, the embed at small sizes, the legend at 1920x1080, the control strip, a
// phone's last step).
import { test, assert, ready } from "./harness.mjs";

/// The lease chart in presenter mode: its words' smallest size on the screen, and how much of
/// its box the drawn words span (top and bottom gaps), every word inside the box.
const LEASE_WORDS = () => {
  const box = document.querySelector(".timeline-scroller.lease").getBoundingClientRect();
  const svg = document.querySelector(".timeline-scroller.lease .page > svg");
  const vb = svg.viewBox.baseVal;
  const r = svg.getBoundingClientRect();
  const scale = Math.min(r.width / vb.width, r.height / vb.height);
  const texts = [...svg.querySelectorAll("text")].filter((t) => t.textContent.trim());
  const sizes = texts.map((t) => parseFloat(t.getAttribute("font-size") || getComputedStyle(t).fontSize) * scale);
  const rects = texts.map((t) => t.getBoundingClientRect());
  const cut = texts.filter((t, i) => rects[i].left < box.left - 1 || rects[i].right > box.right + 1
    || rects[i].top < box.top - 1 || rects[i].bottom > box.bottom + 1).map((t) => t.textContent.trim());
  return {
    smallest: Math.min(...sizes),
    gapAbove: Math.min(...rects.map((q) => q.top)) - box.top,
    gapBelow: box.bottom - Math.max(...rects.map((q) => q.bottom)),
    cut,
    viewBox: `${vb.width}x${vb.height}`,
  };
};

export async function review27Tests(browser, base, shot) {
  await test(browser, "presenter mode's lease chart of consensus-fenced-failover fills its box at 1280x720, its words at 10 px", async (page) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${base}index.html#scenario=consensus-fenced-failover&step=end&chart=lease&present=1`);
    await ready(page);
    await page.waitForFunction(() => document.querySelector(".timeline-scroller.lease .page > svg"));
    await page.waitForTimeout(800);
    const end = await page.evaluate(LEASE_WORDS);
    // Laid out as a 1,920 px slide it showed 52 of its 70 words at 7.6 px, with 75 px blank
    // above and below it.
    assert(end.smallest >= 9.95, `its smallest words are ${end.smallest.toFixed(2)} px: ${JSON.stringify(end)}`);
    assert(end.gapAbove < 30 && end.gapBelow < 30, `blank above or below the chart: ${JSON.stringify(end)}`);
    assert(end.cut.length === 0, `words cut at the box's edge: ${JSON.stringify(end.cut)}`);
    await shot(page, "presenter-lease-consensus-fenced-failover-end-1280x720");
    // One size at every step.
    await page.keyboard.press("Home");
    for (let i = 0; i < 6; i++) {
      await page.keyboard.press("ArrowRight");
      await page.waitForTimeout(120);
      const now = await page.evaluate(LEASE_WORDS);
      assert(now.viewBox === end.viewBox, `step ${i + 1}: the chart is ${now.viewBox}, at the end ${end.viewBox}`);
      assert(now.cut.length === 0, `step ${i + 1}: words cut: ${JSON.stringify(now.cut)}`);
    }
  });
}
