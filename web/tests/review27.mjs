// Browser tests of session 27's work (a presenter's and a docs author's review: the lease chart
// in presenter mode, the embed at small sizes, the control strip).
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

  await test(browser, "a 375x300 embed shows step 1 the same stepped to as linked to, its caption clear of the step column, and no cut cast", async (page) => {
    await page.setViewportSize({ width: 375, height: 300 });
    const view = () => page.evaluate(() => {
      const sc = document.querySelector(".timeline-scroller");
      const s = sc.getBoundingClientRect();
      const box = (e) => {
        if (!e || e.hidden || getComputedStyle(e).display === "none" || e.getClientRects().length === 0) return null;
        const r = e.getBoundingClientRect();
        return { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      };
      const pin = box(document.querySelector(".pin-box"));
      // The step column's part inside the window.
      const column = pin ? Math.max(0, Math.min(pin.right, s.right) - Math.max(pin.left, s.left)) : 0;
      const cap = box(document.querySelector(".step-caption"));
      const card = document.querySelector(".cast");
      const cast = card && getComputedStyle(card).visibility !== "hidden" && card.getClientRects().length ? box(card) : null;
      return { left: Math.round(sc.scrollLeft), column, width: sc.clientWidth, pin, cap, cast,
        window: { top: s.top + sc.clientTop, bottom: s.top + sc.clientTop + sc.clientHeight } };
    });
    await page.goto(`${base}embed.html#scenario=fenced-gc-pause&step=0&controls=full`);
    await ready(page);
    await page.waitForTimeout(600);
    const zero = await view();
    // At step 0 the cast card was laid out under the 76 px window, its top border alone in view.
    assert(!zero.cast || (zero.cast.top >= zero.window.top - 1 && zero.cast.bottom <= zero.window.bottom + 1),
      `the cast is cut by the window: ${JSON.stringify(zero)}`);
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction(() => document.querySelector("input[aria-label='Current step']")?.value === "1");
    await page.waitForTimeout(800);
    const stepped = await view();
    await shot(page, "embed-375x300-fenced-gc-pause-0-to-1");
    // The step column, too wide to pin, stayed in view at 57% of the window, the step's caption
    // drawn over its "#1 | 0 ms" marker.
    assert(stepped.column <= 0.4 * stepped.width, `the step column takes ${stepped.column} of ${stepped.width} px: ${JSON.stringify(stepped)}`);
    assert(stepped.column === 0 || !stepped.cap || stepped.cap.left >= stepped.pin.right - 1,
      `the caption is over the step column: ${JSON.stringify(stepped)}`);
    const fresh = await browser.newContext({ viewport: { width: 375, height: 300 } });
    const linked = await fresh.newPage();
    await linked.goto(`${base}embed.html#scenario=fenced-gc-pause&step=1&controls=full`);
    await ready(linked);
    await linked.waitForTimeout(800);
    const direct = await linked.evaluate(() => ({
      left: Math.round(document.querySelector(".timeline-scroller").scrollLeft),
      cap: (() => { const c = document.querySelector(".step-caption"); if (!c || c.hidden) return null; const r = c.getBoundingClientRect(); return Math.round(r.left); })(),
    }));
    await fresh.close();
    assert(Math.abs(direct.left - stepped.left) <= 2, `step 1 is scrolled to ${stepped.left} px stepped to, ${direct.left} px linked to`);
    assert((direct.cap === null) === (stepped.cap === null) && (direct.cap === null || Math.abs(direct.cap - stepped.cap.left) <= 2),
      `step 1's caption differs: stepped ${JSON.stringify(stepped.cap)}, linked ${direct.cap}`);
  });

  await test(browser, "presenter mode's control strip at 1280x720 sets 'of N' at its buttons' size, on one line", async (page) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    for (const [id, chart] of [["consensus-fenced-failover", ""], ["consensus-fenced-failover", "&chart=lease"], ["redlock-delayed-restart", "&chart=lease"], ["redlock-gc-pause", ""]]) {
      await page.goto(`${base}index.html?${id}${chart}#scenario=${id}&step=16&present=1${chart}`);
      await ready(page);
      await page.waitForTimeout(500);
      const got = await page.evaluate(() => {
        const c = document.querySelector(".controls");
        const size = (sel) => parseFloat(getComputedStyle(c.querySelector(sel)).fontSize);
        const kids = [...c.children].filter((e) => e.getClientRects().length);
        const rects = kids.map((e) => e.getBoundingClientRect());
        const button = c.querySelector("button").getBoundingClientRect().height;
        return {
          of: size(".of"), button: size("button"), input: size("input"), select: size("select"),
          lines: (Math.max(...rects.map((r) => r.bottom)) - Math.min(...rects.map((r) => r.top))) / button,
          over: c.scrollWidth - c.clientWidth,
        };
      });
      const at = `${id}${chart}: ${JSON.stringify(got)}`;
      // "of 122" was 14.4 px beside 20 px buttons.
      assert(got.of === got.button && got.input === got.button && got.select === got.button, `the strip's words are not at its buttons' size: ${at}`);
      assert(got.lines < 1.5 && got.over <= 0, `the strip takes more than one line: ${at}`);
    }
    await shot(page, "presenter-controls-redlock-gc-pause-16-1280x720");
  });

  await test(browser, "a 640x360 embed with full controls cuts no lane header at its edges, and its Fit button ends the first line", async (page) => {
    await page.setViewportSize({ width: 640, height: 360 });
    for (const step of [1, 3, 12]) {
      await page.goto(`${base}embed.html?${step}#scenario=fenced-gc-pause&step=${step}&controls=full`);
      await ready(page);
      await page.waitForTimeout(800);
      const got = await page.evaluate(() => {
        const sc = document.querySelector(".timeline-scroller");
        const s = sc.getBoundingClientRect();
        const [left, right] = [s.left + sc.clientLeft, s.left + sc.clientLeft + sc.clientWidth];
        const cut = [...sc.querySelectorAll(".page > svg:not([data-far]) [data-layer=lanes] rect")]
          .filter((r) => getComputedStyle(r).visibility !== "hidden" && r.getClientRects().length)
          .map((r) => r.getBoundingClientRect())
          .filter((r) => r.width > 0 && ((r.left < left - 1 && r.right > left + 1) || (r.left < right - 1 && r.right > right + 1)))
          .map((r) => `${Math.round(r.left)}..${Math.round(r.right)}`);
        const top = (sel) => Math.round(document.querySelector(sel).getBoundingClientRect().top);
        const pills = [...document.querySelectorAll(".lanes-off span:not([hidden])")].map((e) => e.textContent);
        return { cut, window: [left, right], first: top(".controls button"), zoom: top("[data-testid=zoom]"), pills, left: sc.scrollLeft };
      });
      const at = `step ${step}: ${JSON.stringify(got)}`;
      // "A / rker" at the left edge and "red" at the right.
      assert(got.cut.length === 0, `lane headers cut at the window's edges: ${at}`);
      assert(Math.abs(got.zoom - got.first) < 8, `the Fit button is not on the first line: ${at}`);
      if (step === 1) await shot(page, "embed-640x360-fenced-gc-pause-1-full");
    }
  });
}
