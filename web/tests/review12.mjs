// Browser tests of session 12's work on issue 7 (review-s11-web): presenter mode on a 1280x720
// projector fits a four-lane run and keeps its explanation and verdict whole; the strip under the
// timeline keeps one height and its type shrinks to fit; a zoomed embed follows a step to the end
// where it happens; the edge hints name the lanes out of view; Fit the width only when it helps.
import { test, assert, ready, openZoomed, frames, readablePx } from "./harness.mjs";


/** Waits until the step box says `n`. */
const atStep = (page, n) => page.waitForFunction((n) => document.querySelector("input[aria-label='Current step']")?.value === String(n), n);

/** The timeline's window and the strip's panels: sizes, scroll, text cut off, type sizes. */
const strip = (page) => page.evaluate(() => {
  const s = document.querySelector(".timeline-scroller");
  const svg = document.querySelector("#ls-timeline");
  const scale = svg ? svg.getBoundingClientRect().width / svg.viewBox.baseVal.width : 0;
  const panel = (sel) => {
    const p = document.querySelector(sel);
    if (!p) return null;
    const box = p.getBoundingClientRect();
    // Text below the panel's box, or scrolled away in it.
    const cut = [...p.querySelectorAll("li, p, h2")].filter((e) => e.getClientRects().length > 0 && e.getBoundingClientRect().bottom > box.bottom + 1)
      .map((e) => e.textContent.trim());
    const sizes = [...p.querySelectorAll("li, p, h2, span")].filter((e) => e.getClientRects().length > 0 && e.textContent.trim())
      .map((e) => parseFloat(getComputedStyle(e).fontSize));
    return { cut, hidden: p.scrollHeight - p.clientHeight, smallest: Math.min(...sizes) };
  };
  const zoom = document.querySelector(".controls [data-testid=zoom]");
  return {
    boxHeight: Math.round(s.getBoundingClientRect().height), left: s.scrollLeft, wide: s.scrollWidth > s.clientWidth + 1,
    label: 16 * scale, explanation: panel(".side > .explanation"), verdict: panel(".side > .verdict"),
    zoomShown: !!zoom && zoom.getClientRects().length > 0,
  };
});

export async function review12Tests(browser, base, shot) {
  // Session 30: fenced-gc-pause no longer fits 1280 px at 11 px labels; it is drawn at 16 px and
  // follows the step sideways (review30.mjs), so this checks the labels' size, not the fit.
  await test(browser, "presenter mode on a 1280x720 projector: fenced-gc-pause at readable labels (16 px at 1080, 10.7 px at 720), its explanation and verdict whole at every step", async (page) => {
    for (const id of ["fenced-gc-pause", "naive-gc-pause"]) {
      await page.goto(`${base}index.html?${id}#scenario=${id}&step=0&present=1`);
      await ready(page);
      await frames(page);
      const total = Number((await page.locator("[data-testid=step-of]").textContent()).replace(/\D+/g, ""));
      const heights = new Set();
      for (let step = 1; step <= total; step++) {
        await page.keyboard.press(step % 3 === 0 ? "PageDown" : "ArrowRight");
        await atStep(page, step);
        await frames(page);
        const now = await strip(page);
        heights.add(now.boxHeight);
        assert(now.label >= readablePx(720), `${id} step ${step}: labels ${now.label.toFixed(1)} px`);
        for (const name of ["explanation", "verdict"]) {
          const p = now[name];
          assert(p.cut.length === 0 && p.hidden <= 1, `${id} step ${step}: the ${name} is cut: ${JSON.stringify(p)}`);
          assert(p.smallest >= 11, `${id} step ${step}: the ${name}'s type is ${p.smallest} px`);
        }
        assert(now.wide === now.zoomShown, `${id} step ${step}: Fit the width is offered only on a run wider than the window: ${JSON.stringify(now)}`);
        if (id === "fenced-gc-pause" && [20, 33, 34].includes(step)) await shot(page, `presenter-1280-${id}-${step}`);
      }
      assert(heights.size === 1, `${id}: the timeline's box changes height: ${[...heights].join(", ")}`);
      await shot(page, `presenter-1280-${id}-end`);
    }
  }, { viewport: { width: 1280, height: 720 } });

  await test(browser, "presenter mode on a 1280x720 projector: the legend folds, and unfolds whole over the picture", async (page) => {
    // Early in the run, the row high in the window: fitted to the screen (its readable labels are
    // 10.7 px there), a step whose row is low leaves the legend less room above it than its rows
    // of entries need, and it scrolls (README).
    await page.goto(`${base}index.html#scenario=fenced-gc-pause&step=10&present=1`);
    await ready(page);
    await frames(page);
    assert(await page.locator(".side > .legend:not([open])").count() === 1, "the legend starts folded on a projector");
    await page.click(".side > .legend > summary");
    await frames(page);
    const legend = await page.evaluate(() => {
      const p = document.querySelector(".side > .legend");
      const box = p.getBoundingClientRect();
      // The entries drawn so far; the rest keep their places, hidden, below them.
      const items = [...p.querySelectorAll("li")].filter((li) => getComputedStyle(li).visibility !== "hidden");
      return { items: items.length, cut: items.filter((li) => li.getBoundingClientRect().bottom > box.bottom + 1).length,
        inWindow: box.top >= 0 && box.bottom <= innerHeight + 1,
        at: [box.top, box.bottom, ...items.map((li) => `${li.textContent.trim().slice(0, 12)}@${Math.round(li.getBoundingClientRect().bottom)}`)] };
    });
    assert(legend.items > 5 && legend.cut === 0 && legend.inWindow, `the unfolded legend is cut: ${JSON.stringify(legend)}`);
    await shot(page, "presenter-1280-legend-unfolded");
  }, { viewport: { width: 1280, height: 720 } });

  await test(browser, "presenter mode's lease chart on a 1280x720 projector is drawn as large as the screen allows", async (page) => {
    await page.goto(`${base}index.html#scenario=fenced-gc-pause&step=33&present=1&chart=lease`);
    await ready(page);
    await page.waitForSelector(".timeline-scroller.lease .page > svg");
    await frames(page);
    const lease = await page.evaluate(() => {
      const box = document.querySelector(".timeline-scroller.lease").getBoundingClientRect();
      const svg = document.querySelector(".timeline-scroller.lease .page > svg");
      const vb = svg.viewBox.baseVal;
      const scale = Math.min(box.width / vb.width, box.height / vb.height);
      const sizes = [...svg.querySelectorAll("text")].filter((t) => t.textContent.trim()).map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
      // How much of the box the drawing covers.
      return { smallest: Math.min(...sizes), covered: (vb.width * scale * vb.height * scale) / (box.width * box.height) };
    });
    // 9 px, not the 9.8 it was: the strip beside it is wider (28% of the width, not 21%), so
    // that every step's explanation and the verdict fit on the screen (review20.mjs).
    assert(lease.smallest >= 9 && lease.covered >= 0.7, `the lease chart is small in its box: ${JSON.stringify(lease)}`);
    await shot(page, "presenter-1280-lease-fenced-gc-pause-33");
  }, { viewport: { width: 1280, height: 720 } });

  await test(browser, "presenter mode's strip keeps one height at 1920x1080 and its explanation is never cut", async (page) => {
    for (const id of ["fenced-gc-pause", "naive-gc-pause"]) {
      await page.goto(`${base}index.html?${id}-1920#scenario=${id}&step=0&present=1`);
      await ready(page);
      await frames(page);
      const total = Number((await page.locator("[data-testid=step-of]").textContent()).replace(/\D+/g, ""));
      const heights = new Set();
      for (let step = 1; step <= total; step++) {
        await page.keyboard.press("ArrowRight");
        await atStep(page, step);
        await frames(page);
        const now = await strip(page);
        heights.add(now.boxHeight);
        for (const name of ["explanation", "verdict"]) {
          const p = now[name];
          assert(p.cut.length === 0 && p.hidden <= 1 && p.smallest >= 12, `${id} step ${step}: the ${name} is cut or tiny: ${JSON.stringify(p)}`);
        }
        if (step === 1) await shot(page, `presenter-1920-${id}-1`);
      }
      assert(heights.size === 1, `${id}: the timeline's box changes height: ${[...heights].join(", ")}`);
      // The run fits the screen: nothing to fit.
      assert(!(await strip(page)).zoomShown, `${id}: Fit the width is offered on a run that fits`);
    }
  });

  await test(browser, "a zoomed embed follows a step to the end where it happens: the stale writer learning it was fenced", async (page) => {
    for (const size of [{ width: 800, height: 450 }, { width: 375, height: 667 }]) {
      await page.setViewportSize(size);
      await openZoomed(page, `${base}embed.html?${size.width}#scenario=fenced-gc-pause&step=33&controls=minimal`, 400);
      await page.click("[aria-label^='Step forward']");
      await atStep(page, 34);
      await frames(page);
      await page.waitForTimeout(600);
      // Step 34: A receives the refusal. A's lane (the receiver) must be in the window, right of
      // the pinned step column.
      const a = await page.evaluate(() => {
        const s = document.querySelector(".timeline-scroller");
        const box = s.getBoundingClientRect();
        const svg = document.querySelector("#ls-timeline");
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        const cur = document.querySelector("rect.current-outline");
        const [lo] = cur.dataset.ends.split(" ").map((x) => Number(x) * scale + svg.getBoundingClientRect().left);
        const pin = s.hasAttribute("data-unpinned") ? box.left : document.querySelector(".pin").getBoundingClientRect().right;
        return { a: lo, from: pin, to: box.right, left: s.scrollLeft };
      });
      assert(a.a >= a.from && a.a <= a.to, `${size.width}x${size.height}: A, the receiver of step 34, is out of view: ${JSON.stringify(a)}`);
      await shot(page, `embed-zoomed-fenced-gc-pause-34-${size.width}x${size.height}`);
    }
  });

  await test(browser, "a zoomed embed keeps the current step's label right of the pinned step column when the row fits", async (page) => {
    await page.setViewportSize({ width: 800, height: 450 });
    /** The current step's words (its live layer's copy, drawn over the picture's own) against the pinned column. */
    const label = (words) => page.evaluate((words) => {
      const pin = document.querySelector(".pin").getBoundingClientRect();
      const box = document.querySelector(".timeline-scroller").getBoundingClientRect();
      const all = [...document.querySelectorAll(".page svg text")].filter((t) => t.textContent.trim() === words && t.getClientRects().length && !t.closest(".pin-box"));
      const t = all.find((t) => t.closest(".ls-live")) ?? all[0];
      const r = t.getBoundingClientRect();
      return { words, left: r.left, right: r.right, pin: pin.right, end: box.right };
    }, words);
    for (const [start, steps] of [[26, [[27, "(integer) 1: deleted"], [28, "(integer) 1: deleted"]]], [33, [[34, null], [35, "A is fenced off"]]]]) {
      await openZoomed(page, `${base}embed.html?${start}#scenario=fenced-gc-pause&step=${start}&controls=minimal`, 300);
      for (const [step, words] of steps) {
        await page.click("[aria-label^='Step forward']");
        await atStep(page, step);
        await frames(page);
        await page.waitForTimeout(500);
        if (!words) continue;
        const l = await label(words);
        assert(l.left >= l.pin && l.right <= l.end, `step ${step}: the label is under the step column or off the window: ${JSON.stringify(l)}`);
      }
      await shot(page, `embed-zoomed-label-fenced-gc-pause-${steps.at(-1)[0]}-800x450`);
    }
  });

  await test(browser, "the edge hints name the lanes out of view, many of them shortened; a lane whose line shows near an edge keeps its chip whole", async (page) => {
    await page.setViewportSize({ width: 800, height: 640 });
    await openZoomed(page, `${base}embed.html#scenario=redlock-split-votes&step=70&controls=minimal`, 500);
    const hints = await page.evaluate(() => [...document.querySelectorAll(".lanes-off span")].filter((e) => !e.hidden).map((e) => e.textContent));
    assert(hints.length > 0 && hints.every((h) => !/\d+ lanes/.test(h)), `the hints count lanes instead of naming them: ${hints}`);
    assert(hints.some((h) => h.includes("…")), `four or more lanes are named with an ellipsis: ${hints}`);
    // Put C's line `inside` px inside the right edge (negative: past it).
    const at = async (inside) => {
      await page.evaluate(({ name, inside }) => {
        const s = document.querySelector(".timeline-scroller");
        const h = [...document.querySelectorAll(".lane-head")].find((h) => h.querySelector("b").textContent === name);
        const x = (parseFloat(h.style.left) / 100) * s.scrollWidth;
        s.scrollLeft = x - s.clientWidth + inside;
      }, { name: "C", inside });
      await frames(page);
      await page.waitForTimeout(200);
      return page.evaluate(() => {
        const box = document.querySelector(".timeline-scroller").getBoundingClientRect();
        const h = [...document.querySelectorAll(".lane-head")].find((h) => h.querySelector("b").textContent === "C");
        const r = h.getBoundingClientRect();
        const pill = document.querySelector(".off-right");
        return {
          named: pill.hidden ? "" : pill.textContent,
          chipWhole: getComputedStyle(h).visibility === "visible" && r.left >= box.left && r.right <= box.right,
          chipHidden: getComputedStyle(h).visibility === "hidden",
        };
      });
    };
    const near = await at(6);
    assert(!near.named.includes("C") && near.chipWhole, `C's line 6 px inside the right edge: its chip shows whole and no pill names it: ${JSON.stringify(near)}`);
    const past = await at(-2);
    assert(past.named.includes("C") && past.chipHidden, `C's line past the right edge: the pill names it and its chip is hidden: ${JSON.stringify(past)}`);
  });
}
