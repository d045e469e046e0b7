// Browser tests of session 30's work (an outside review of the app as a workshop presenter
// projecting it, and on a phone): presenter mode's type and the height it gives the picture, its
// legend sized for the whole run, a phone's lease chart's labels at the window's edge, calm
// sideways following of wide Redlock runs, and the to-scale view at 1280x720.
import { test, assert, ready, frames, present, readablePx } from "./harness.mjs";

/** The timeline's text on the screen: the size of its message labels (16 px in the picture),
 * the timeline's and the strip's heights and the strip's type. */
const PRESENTED = () => {
  const sc = document.querySelector(".timeline-scroller");
  const page = sc.querySelector(".page");
  const scale = page.getBoundingClientRect().width / parseFloat(getComputedStyle(page).getPropertyValue("--page-w"));
  // The arrows' labels are the picture's 16 px text (its subtitle too, out of view above).
  const s = sc.getBoundingClientRect();
  const labels = [...sc.querySelectorAll(".page svg text")]
    .filter((t) => t.getAttribute("font-size") === "16" && t.getClientRects().length && t.textContent.trim())
    .filter((t) => { const r = t.getBoundingClientRect(); return r.bottom > s.top && r.top < s.bottom && r.right > s.left && r.left < s.right; });
  const side = document.querySelector(".presenter .side").getBoundingClientRect();
  const why = document.querySelector(".presenter .side > .explanation .why, .presenter .side > .explanation .label");
  const facts = document.querySelector(".presenter .side > .verdict .facts");
  return {
    label: 16 * scale,
    labels: labels.length,
    timeline: Math.round(s.height),
    strip: Math.round(side.height),
    words: why && parseFloat(getComputedStyle(why).fontSize),
    verdict: facts && parseFloat(getComputedStyle(facts).fontSize),
  };
};

/** Presenter mode's legend, unfolded: its box, its entries in order (shown or kept), its type. */
const LEGEND = () => {
  const l = document.querySelector(".presenter .side > details.legend");
  const b = l.getBoundingClientRect();
  const items = [...l.querySelectorAll("li")].map((li) => ({
    words: li.textContent.trim(),
    shown: getComputedStyle(li).visibility !== "hidden" && li.getClientRects().length > 0,
    top: Math.round(li.getBoundingClientRect().top - b.top),
    left: Math.round(li.getBoundingClientRect().left - b.left),
  }));
  const first = l.querySelector("li span:last-child");
  return {
    open: l.open, width: Math.round(b.width), height: Math.round(b.height), items,
    full: l.scrollHeight,
    empty: l.querySelector(".empty")?.textContent ?? null,
    font: first ? parseFloat(getComputedStyle(first).fontSize) * (parseFloat(getComputedStyle(l.querySelector("ul")).zoom) || 1) : null,
  };
};

export async function review30Tests(browser, base, shot) {

  await test(browser, "presenter mode draws the timeline's labels at 16 px or more on a 1080 px screen (as much less as a shorter screen is) and gives the picture the strip's spare height", async (page) => {
    for (const [id, w, h, step, least] of [
      ["fenced-gc-pause", 1280, 720, 12, 400],
      ["redlock-gc-pause", 1280, 720, 12, 420],
      ["consensus-fenced-failover", 1920, 1080, 12, 670],
      ["fenced-gc-pause", 1920, 1080, 12, 680],
    ]) {
      await present(page, base, id, { width: w, height: h, step });
      const v = await page.evaluate(PRESENTED);
      // Fitted to the width they were 12.4 px (consensus-fenced-failover at 1920x1080). At
      // 1280x720 fenced-gc-pause fits at 11 px, which the wall shows as large as 16.5 px at 1080.
      assert(v.labels > 0 && v.label >= readablePx(h), `${id} ${w}x${h}: labels at ${v.label.toFixed(1)} px: ${JSON.stringify(v)}`);
      // The strip kept a quarter of the screen or more (208 px at 1280x720, 270 at 1920x1080)
      // whatever its words needed; the timeline had 383 and 669 px.
      assert(v.timeline >= least, `${id} ${w}x${h}: the timeline is ${v.timeline} px tall (at least ${least} wanted): ${JSON.stringify(v)}`);
      // 16 px at 1080, as much less on a shorter screen (fit.rs floor_px, 13 px at 720): at 16
      // px a long step kept the strip at 42% of a 1024x768 projector (session 33's review).
      const floor = Math.min(16, Math.max(13, 16 * h / 1080)) - 0.1;
      assert(v.words >= floor && v.verdict >= floor, `${id} ${w}x${h}: the strip's type is below ${floor} px: ${JSON.stringify(v)}`);
      if (id === "fenced-gc-pause") await shot(page, `presenter-16px-labels-${id}-${w}x${h}`);
    }
  });

  await test(browser, "presenter mode's legend opens with one width and size of words for the whole run, what is drawn so far packed at its top", async (page) => {
    await present(page, base, "consensus-fenced-failover", { width: 1920, height: 1080, step: 0 });
    const open = async () => {
      await page.click(".presenter .side > details.legend > summary");
      await page.waitForTimeout(150);
      return page.evaluate(LEGEND);
    };
    const zero = await open();
    // Step 0 draws nothing: a line says so, in a panel its size, not a blank whole-run panel.
    assert(zero.open && zero.empty && zero.items.filter((i) => i.shown).length === 0 && zero.height < 160,
      `step 0: ${JSON.stringify(zero)}`);
    await page.keyboard.press("Escape");
    let first = null;
    const seen = new Set();
    for (const to of [1, 30, 60, 100, "end"]) {
      if (to === "end") await page.keyboard.press("End");
      else for (let n = Number(await page.inputValue("input[aria-label='Current step']")); n < to; n++) await page.keyboard.press("ArrowRight");
      await page.waitForTimeout(500);
      const l = await open();
      assert(l.open, `step ${to}: the legend did not open`);
      // Its words at 16 px (in a third of the strip they were 9-10 px).
      assert(l.font >= 16, `step ${to}: the legend's words are ${l.font} px`);
      // The entries drawn so far first, then the room kept: no blank place among them.
      const last = l.items.map((i) => i.shown).lastIndexOf(true);
      const firstKept = l.items.findIndex((i) => !i.shown);
      assert(firstKept === -1 || last < firstKept, `step ${to}: a kept place among the drawn entries: ${JSON.stringify(l.items)}`);
      seen.add(last + 1);
      if (!first) first = l;
      // One width and one size of words, and as many entries (shown and kept), at every step.
      // Since session 33 its box is only as tall as the entries drawn so far (early in a run a
      // box kept for the whole run's entries was mostly blank, and read as broken).
      assert(l.width === first.width && l.font === first.font && l.items.length === first.items.length,
        `step ${to}: the legend is ${l.width} px wide, its words ${l.font} px, with ${l.items.length} places; at step 1 ${first.width}, ${first.font} px, ${first.items.length}`);
      // The columns stay: the first entry at the same place.
      assert(l.items[0].left === first.items[0].left && l.items[0].top === first.items[0].top, `step ${to}: the first entry moved`);
      if (to === 60) await shot(page, "presenter-legend-packed-consensus-fenced-failover-60");
      await page.keyboard.press("Escape");
    }
    assert(seen.size >= 3, `the steps drew the same number of entries: ${[...seen]}`);
  });

  await test(browser, "a wide Redlock run at 1280x720 moves sideways only when the current step's row would leave the view, by the least that shows it", async (page) => {
    // `across.rs`: a row counts as in view 4 px inside the window's edges; a move leaves a
    // 40 px margin past the row's end where there is room (a note kept whole may add a little).
    const EDGE = 4, PAD = 40, SLACK = 12;
    const report = [];
    for (const [id, presenter] of [["redlock-gc-pause", false], ["redlock-split-votes", false], ["redlock-delayed-restart", false],
      ["redlock-gc-pause", true], ["redlock-split-votes", true], ["redlock-delayed-restart", true]]) {
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.goto(`${base}index.html?calm${presenter}#scenario=${id}`);
      await ready(page);
      if (presenter) {
        await page.keyboard.press("f");
        await page.waitForSelector(".presenter");
      }
      await page.waitForTimeout(600);
      const info = JSON.parse(await page.evaluate(async (id) => (await import("./lockstep_web.js")).step_rows(id, false), id));
      const rows = new Map(info.rows.map((r) => [r.step, r]));
      const view = () => page.evaluate(() => {
        const s = document.querySelector(".timeline-scroller");
        const pin = document.querySelector(".pin-box");
        return { x: s.scrollLeft, w: s.clientWidth, sw: s.scrollWidth,
          pin: pin && pin.getClientRects().length ? pin.getBoundingClientRect().width : 0 };
      });
      let before = await view();
      const bad = [];
      let moves = 0;
      for (let step = 1; step <= 45; step++) {
        await page.keyboard.press("ArrowRight");
        await page.waitForFunction((k) => document.querySelector("input[aria-label='Current step']")?.value === String(k), step);
        await page.waitForTimeout(250);
        await frames(page);
        const now = await view();
        const scale = now.sw / info.width;
        const r = rows.get(step);
        const ends = r && (r.ends || r.span);
        if (ends) {
          const span = r.span || ends;
          // The row's arrows, words and notes, on the screen.
          // (What lies under the pinned step column at the picture's left edge never shows.)
          const lo = Math.max(Math.min(span[0], ends[0]) * scale, now.pin + EDGE), hi = Math.max(span[1], ends[1]) * scale;
          const avail = now.w - now.pin;
          const moved = now.x - before.x;
          if (moved !== 0) moves++;
          if (hi - lo + 2 * EDGE <= avail) {
            const shown = (x) => lo >= x + now.pin + EDGE - 1 && hi <= x + now.w - EDGE + 1;
            // The least move that shows it, from where the window was.
            const least = shown(before.x) ? 0 : lo < before.x + now.pin ? before.x + now.pin - lo : hi - (before.x + now.w);
            if (shown(before.x) && moved !== 0) bad.push(`#${step}: its row ${Math.round(lo)}..${Math.round(hi)} was in view at ${before.x}, the window moved ${moved}`);
            else if (Math.abs(moved) > least + PAD + EDGE + SLACK) bad.push(`#${step}: moved ${moved} where ${Math.round(least)} showed its row ${Math.round(lo)}..${Math.round(hi)} (from ${before.x})`);
            // A move shorter than 16 px is not made since review 31 (across.rs NUDGE: nudges
            // read as the picture shaking on a projector): a row left where it is may end that
            // much short of the 4 px margin.
            else if (!shown(now.x) && !(moved === 0 && least < 16)) bad.push(`#${step}: its row ${Math.round(lo)}..${Math.round(hi)} is not in view at ${now.x}`);
          }
        }
        before = now;
      }
      report.push(`${id}${presenter ? " presenter" : ""}: ${moves} moves`);
      // redlock-split-votes went 0, 238, 811, 46, 238, 811 in its first twelve steps: past the
      // current row to show the next ones, then back.
      assert(bad.length === 0, `${id}${presenter ? " in presenter mode" : ""}:\n${bad.join("\n")}`);
      if (id === "redlock-split-votes" && presenter) await shot(page, "presenter-calm-sideways-redlock-split-votes-45");
    }
    console.log(`      ${report.join(", ")}`);
  });

  /** The lease chart's words the window's right edge or the pinned names' edge slices (shown,
   * in the rows' part of the window). */
  const LEASE_SLICED = () => {
    const sc = document.querySelector(".timeline-scroller.lease");
    const s = sc.getBoundingClientRect();
    const right = s.left + sc.clientLeft + sc.clientWidth;
    const names = document.querySelector(".lease-pin > svg");
    const n = names ? names.getBoundingClientRect() : null;
    const across = (r, edge) => r.left < edge - 1 && r.right > edge + 1;
    return [...sc.querySelectorAll(".page > svg text")]
      .filter((t) => t.textContent.trim() && t.getClientRects().length && getComputedStyle(t).visibility !== "hidden")
      .map((t) => ({ text: t.textContent.trim(), r: t.getBoundingClientRect() }))
      .filter(({ r }) => r.bottom > s.top && r.top < s.bottom && (!n || (r.top + r.bottom) / 2 > n.top && (r.top + r.bottom) / 2 < n.bottom))
      .filter(({ r }) => across(r, right) || (n && across(r, n.right)))
      .map(({ text, r }) => `${text} (${Math.round(r.left)}..${Math.round(r.right)})`);
  };

  await test(browser, "on a phone the lease chart's words are whole or hidden whole at the window's edges, at the end, mid-run and scrolled by hand", async (page) => {
    for (const id of ["fenced-gc-pause", "redlock-gc-pause"]) {
      for (const step of ["end", "20"]) {
        await page.goto(`${base}index.html?lease${id}${step}#scenario=${id}&step=${step}&chart=lease`);
        await ready(page);
        await page.waitForSelector(".timeline-scroller.lease .page > svg");
        await page.waitForTimeout(900);
        const wide = await page.evaluate(() => { const s = document.querySelector(".timeline-scroller.lease"); return s.scrollWidth > s.clientWidth + 1; });
        assert(wide, `${id} ${step}: the chart fits the phone: nothing to check`);
        // fenced-gc-pause's end showed "wri" and "db t" at the right edge, redlock-gc-pause's "A do".
        const sliced = await page.evaluate(LEASE_SLICED);
        assert(sliced.length === 0, `${id} step ${step}: words sliced at the window's edges: ${JSON.stringify(sliced)}`);
        if (id === "fenced-gc-pause" && step === "end") await shot(page, "phone-lease-edges-fenced-gc-pause-end");
        // Scrolled by hand, a little each way.
        for (const by of [-140, 90, 210]) {
          await page.evaluate((by) => { document.querySelector(".timeline-scroller.lease").scrollLeft += by; }, by);
          await page.waitForTimeout(250);
          const now = await page.evaluate(LEASE_SLICED);
          assert(now.length === 0, `${id} step ${step}, scrolled ${by} px: words sliced at the window's edges: ${JSON.stringify(now)}`);
        }
      }
    }
  }, { viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

  await test(browser, "to scale at 1280x720, the current step's outline ends at the lanes, clear of the axis's times and notes", async (page) => {
    for (const presenter of [true, false]) {
      await page.setViewportSize({ width: 1280, height: 720 });
      await page.goto(`${base}index.html?scale${presenter}#scenario=fenced-gc-pause&step=17&mode=scale`);
      await ready(page);
      if (presenter) {
        await page.keyboard.press("f");
        await page.waitForSelector(".presenter");
      }
      await page.waitForTimeout(600);
      for (let step = 18; step <= 34; step++) {
        await page.keyboard.press("ArrowRight");
        await page.waitForFunction((k) => document.querySelector("input[aria-label='Current step']")?.value === String(k), step);
        await page.waitForTimeout(200);
        // The axis's words ("6 s", "zoom: 6000–6004 ms,", "in order", "overlap 2 ms"), shown
        // wherever the window is: the window goes to the picture's right end to read them.
        await page.evaluate(() => { const s = document.querySelector(".timeline-scroller"); s.scrollLeft = s.scrollWidth; });
        await page.waitForTimeout(150);
        const v = await page.evaluate(() => {
          const frame = document.querySelector(".current-frame");
          if (!frame) return null;
          const f = frame.getBoundingClientRect();
          const axis = [...document.querySelectorAll(".page > svg text")]
            .filter((t) => t.getClientRects().length && /^(\d+(\.\d+)? s|zoom:|in order|overlap \d)/.test(t.textContent.trim()))
            .map((t) => ({ text: t.textContent.trim(), r: t.getBoundingClientRect() }));
          // An axis word in the outline's box: its top or bottom edge runs through it.
          const struck = axis.filter(({ r }) => r.left < f.right && r.right > f.left && r.bottom > f.top && r.top < f.bottom).map(({ text }) => text);
          return { right: Math.round(f.right), struck, axis: axis.length };
        });
        assert(v && v.axis > 0, `step ${step}: no axis drawn: ${JSON.stringify(v)}`);
        // Step 20's outline ran on to the page's edge, through "overlap 2 ms".
        assert(v.struck.length === 0, `step ${step}${presenter ? " (presenter)" : ""}: the outline runs through ${JSON.stringify(v.struck)}`);
        if (presenter && step === 20) await shot(page, "scale-outline-clear-of-axis-fenced-gc-pause-20-1280x720");
      }
    }
  });
}
