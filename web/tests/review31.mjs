// Browser tests of session 31's work (a presenter review at 1280x720, 1920x1080, a phone and a
// 640x360 embed): the picture's verdict shown whole at the last step of a wide run in presenter
// mode and in an embed, and no sideways moves too small to show anything new.
import { test, assert, ready, frames, present } from "./harness.mjs";



/** The picture's own verdict under the run (its headline and every line below it), the
 * timeline's window and its scroll, and the verdict's lines the window cuts or the pills naming
 * lanes out of view cover; and the step column's row labels ("#40 | 11004 ms") whole in view. */
const VERDICT_AT_END = () => {
  const sc = document.querySelector(".timeline-scroller");
  const s = sc.getBoundingClientRect();
  const win = { left: s.left + sc.clientLeft, right: s.left + sc.clientLeft + sc.clientWidth,
    top: s.top + sc.clientTop, bottom: s.top + sc.clientTop + sc.clientHeight };
  const texts = [...sc.querySelectorAll(".page svg text")].filter((t) => t.getClientRects().length && t.textContent.trim());
  const head = texts.find((t) => t.textContent.trim().startsWith("Verdict:"));
  const at = { left: Math.round(sc.scrollLeft), top: Math.round(sc.scrollTop) };
  const rows = [...sc.querySelectorAll(".pin-box svg text, .page > svg text")]
    .filter((t) => /^#\d/.test(t.textContent.trim()) && t.getClientRects().length > 0)
    .map((t) => t.getBoundingClientRect())
    .filter((r) => r.top >= win.top + 30 && r.bottom <= win.bottom).length;
  if (!head) return { win, at, rows, lines: [], cut: [], covered: [] };
  const top = head.getBoundingClientRect().top - 1;
  const lines = texts.map((t) => ({ text: t.textContent.trim(), r: t.getBoundingClientRect() }))
    .filter((l) => l.r.top >= top)
    .map(({ text, r }) => ({ text, left: r.left, right: r.right, top: r.top, bottom: r.bottom }));
  const cut = lines.filter((l) => l.left < win.left - 1 || l.right > win.right + 1 || l.top < win.top - 1 || l.bottom > win.bottom + 1)
    .map((l) => l.text);
  const pills = [...document.querySelectorAll(".lanes-off > *")]
    .filter((p) => p.getClientRects().length && !p.hidden && getComputedStyle(p).display !== "none" && getComputedStyle(p).visibility !== "hidden")
    .map((p) => p.getBoundingClientRect());
  const covered = lines.filter((l) => pills.some((p) => p.left < l.right && p.right > l.left && p.top < l.bottom && p.bottom > l.top))
    .map((l) => l.text);
  return { win, at, rows, lines, cut, covered };
};

export async function review31Tests(browser, base, shot) {
  await test(browser, "presenter mode at 1280x720 shows a wide run's verdict whole from the picture's left edge at the last step, the last rows above it", async (page) => {
    for (const id of ["redlock-gc-pause", "consensus-fenced-failover"]) {
      await present(page, base, id, { width: 1280, height: 720, tag: "r31p" });
      await page.keyboard.press("End");
      await page.waitForFunction(() => {
        const i = document.querySelector("input[aria-label='Current step']");
        return i && i.value === i.max;
      });
      await page.waitForTimeout(700);
      await frames(page);
      const v = await page.evaluate(VERDICT_AT_END);
      // The window stayed at the note's words, 660 px (redlock-gc-pause) and 608 px
      // (consensus-fenced-failover) to the right, the verdict under the run out of view.
      assert(v.lines.length >= 3, `${id}: no verdict under the run: ${JSON.stringify(v)}`);
      assert(v.at.left <= 1, `${id}: the window is ${v.at.left} px right of the picture's left edge, where the verdict starts`);
      assert(v.cut.length === 0, `${id}: the window cuts the verdict's ${JSON.stringify(v.cut)} (${JSON.stringify(v.win)})`);
      assert(v.covered.length === 0, `${id}: the pills cover the verdict's ${JSON.stringify(v.covered)}`);
      assert(v.rows >= 2, `${id}: only ${v.rows} rows of the story above the verdict`);
      await shot(page, `presenter-verdict-at-end-${id}-1280x720`);
    }
  });

  await test(browser, "an embed 640x360 with its full controls shows the picture's verdict whole at the last step", async (page) => {
    await page.setViewportSize({ width: 640, height: 360 });
    for (const controls of ["full", "minimal"]) {
      await page.goto(`${base}embed.html?r31end${controls}#scenario=redlock-gc-pause&step=end&controls=${controls}`);
      await ready(page);
      await page.waitForTimeout(900);
      await frames(page);
      const v = await page.evaluate(VERDICT_AT_END);
      // With the full controls the window showed "run complete" and two lanes' footers only.
      assert(v.lines.length >= 3, `controls=${controls}: no verdict under the run: ${JSON.stringify(v)}`);
      assert(v.cut.length === 0, `controls=${controls}: the window cuts the verdict's ${JSON.stringify(v.cut)} (${JSON.stringify(v.win)}, scrolled ${JSON.stringify(v.at)})`);
      assert(v.covered.length === 0, `controls=${controls}: the pills cover the verdict's ${JSON.stringify(v.covered)}`);
      await shot(page, `embed-verdict-at-end-redlock-gc-pause-640x360-${controls}`);
    }
  });

  await test(browser, "presenter mode at 1280x720 makes no sideways move shorter than 16 px, and none where the current row is in view", async (page) => {
    await page.emulateMedia({ reducedMotion: "reduce" });
    const report = [];
    for (const [id, upto] of [["consensus-fenced-failover", 80], ["fenced-gc-pause", 40], ["redlock-gc-pause", 60]]) {
      await present(page, base, id, { width: 1280, height: 720, tag: "r31p" });
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
      const moves = [];
      for (let step = 1; step <= upto; step++) {
        await page.keyboard.press("ArrowRight");
        await page.waitForFunction((k) => document.querySelector("input[aria-label='Current step']")?.value === String(k), step);
        await page.waitForTimeout(120);
        await frames(page);
        const now = await view();
        const moved = Math.round(now.x - before.x);
        if (moved !== 0) moves.push(moved);
        if (moved !== 0 && Math.abs(moved) < 16) bad.push(`#${step}: a nudge of ${moved} px`);
        const r = rows.get(step);
        const scale = now.sw / info.width;
        // The row's arrows and words, on the screen, inside the window (its edges included)
        // before the step: the window stays.
        const span = r && (r.span || r.ends);
        if (span && moved !== 0) {
          const lo = span[0] * scale, hi = span[1] * scale;
          if (lo >= before.x + now.pin && hi <= before.x + now.w) bad.push(`#${step}: its row ${Math.round(lo)}..${Math.round(hi)} was in view at ${before.x}, the window moved ${moved}`);
        }
        before = now;
      }
      report.push(`${id}: ${moves.join(", ")}`);
      // consensus-fenced-failover moved +40, -40, +40 at #56, #67, #74, its rows on the window's edge.
      assert(bad.length === 0, `${id}:\n${bad.join("\n")}`);
    }
    console.log(`      sideways moves at 1280x720: ${report.join("; ")}`);
  });

  await test(browser, "presenter mode's legend opened mid-run at 1280x720 leaves the current step's row in view, and Esc folds it", async (page) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    for (const [id, step] of [["fenced-gc-pause", 20], ["consensus-fenced-failover", 60], ["redlock-gc-pause", 50]]) {
      await page.goto(`${base}index.html?r31legend${id}${step}#scenario=${id}&step=${step}&present=1`);
      await ready(page);
      await page.waitForTimeout(800);
      await frames(page);
      await page.click(".presenter .side > details.legend > summary");
      await page.waitForTimeout(300);
      const m = await page.evaluate(() => {
        const r = document.querySelector(".presenter .current-outline").getBoundingClientRect();
        const d = document.querySelector(".presenter .side > details.legend");
        const l = d.getBoundingClientRect();
        const shown = [...d.querySelectorAll("li:not(.ghost)")].length;
        return { open: d.open, row: [r.top, r.bottom], legend: [l.top, l.bottom], shown };
      });
      assert(m.open && m.shown > 0, `${id} #${step}: the legend did not open: ${JSON.stringify(m)}`);
      // At the strip's end it reached up over the current row (fenced-gc-pause #20: the legend
      // 337..716, the row 321..367).
      assert(m.legend[0] >= m.row[1] || m.legend[1] <= m.row[0], `${id} #${step}: the legend covers the current row: ${JSON.stringify(m)}`);
      if (id === "fenced-gc-pause") await shot(page, `presenter-legend-mid-run-${id}-${step}-1280x720`);
      await page.keyboard.press("Escape");
      await page.waitForTimeout(150);
      const open = await page.evaluate(() => document.querySelector(".presenter .side > details.legend").open);
      assert(!open, `${id}: Esc left the legend open`);
    }
  });

  /** The picture's words the timeline window's right edge slices (shown, in the window's height). */
  const SLICED_RIGHT = () => {
    const sc = document.querySelector(".timeline-scroller");
    const r = sc.getBoundingClientRect();
    const right = r.left + sc.clientLeft + sc.clientWidth;
    return [...sc.querySelectorAll(".page svg text")]
      .filter((t) => t.textContent.trim() && t.getClientRects().length && getComputedStyle(t).visibility !== "hidden")
      .map((t) => ({ text: t.textContent.trim(), b: t.getBoundingClientRect() }))
      .filter(({ b }) => b.bottom > r.top && b.top < r.bottom && b.left < right - 1 && b.right > right + 1)
      .map(({ text, b }) => `${text} (${Math.round(b.left)}..${Math.round(b.right)})`);
  };

  await test(browser, "presenter mode at 1280x720 hides whole a label the window's right edge would slice", async (page) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    for (const step of [30, 41]) {
      await page.goto(`${base}index.html?r31cut${step}#scenario=fenced-gc-pause&step=${step}&present=1`);
      await ready(page);
      await page.waitForTimeout(900);
      await frames(page);
      // Step 30 read "B holds the lock (tok" and "DELEX lock:batch-42 IFEQ 1494" at that edge.
      const sliced = await page.evaluate(SLICED_RIGHT);
      assert(sliced.length === 0, `step ${step}: words sliced at the window's right edge: ${JSON.stringify(sliced)}`);
      if (step === 30) await shot(page, "presenter-right-edge-fenced-gc-pause-30-1280x720");
    }
  });

  await test(browser, "on a phone the timeline hides whole a label the window's right edge would slice, at the end", async (page) => {
    for (const id of ["fenced-gc-pause", "redlock-gc-pause"]) {
      await page.goto(`${base}index.html?r31phone${id}#scenario=${id}&step=end`);
      await ready(page);
      await page.waitForTimeout(1200);
      await frames(page);
      // "DELEX lock:bat" and "(in" showed at the right edge (both runs).
      const sliced = await page.evaluate(SLICED_RIGHT);
      assert(sliced.length === 0, `${id}: words sliced at the window's right edge: ${JSON.stringify(sliced)}`);
      // Scrolled by hand a little, the same.
      await page.evaluate(() => { document.querySelector(".timeline-scroller").scrollLeft += 70; });
      await page.waitForTimeout(250);
      const after = await page.evaluate(SLICED_RIGHT);
      assert(after.length === 0, `${id}, scrolled 70 px: words sliced at the window's right edge: ${JSON.stringify(after)}`);
      if (id === "fenced-gc-pause") await shot(page, "phone-right-edge-fenced-gc-pause-end");
    }
  }, { viewport: { width: 375, height: 667 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });

  await test(browser, "presenter mode's strip sets its step-0 hint and the scenario's expectation at 16 px or more", async (page) => {
    for (const [w, h] of [[1280, 720], [1920, 1080]]) {
      await page.setViewportSize({ width: w, height: h });
      for (const step of ["0", "end"]) {
        await page.goto(`${base}index.html?r31strip${w}${step}#scenario=fenced-gc-pause&step=${step}&present=1`);
        await ready(page);
        await page.waitForTimeout(800);
        const m = await page.evaluate(() => {
          let min = 1e9, words = "";
          for (const el of document.querySelectorAll(".presenter .side *")) {
            if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
            if (!el.getClientRects().length || el.closest("details:not([open]) > ul")) continue;
            const size = parseFloat(getComputedStyle(el).fontSize);
            if (size < min) { min = size; words = el.textContent.trim().slice(0, 40); }
          }
          const over = [...document.querySelectorAll(".presenter .side > *")].filter((e) => e.scrollHeight > e.clientHeight + 1).map((e) => e.className);
          return { min, words, over };
        });
        // "Press → or Space …" and "The scenario expects …" were 14.4 px (0.9rem, 0.9em) where
        // the strip's words were 16. Since session 33 a shorter screen's floor is lower
        // (fit.rs floor_px: 16 px at 1080, 13 at 720), and they are as large as the rest.
        const floor = Math.min(16, Math.max(13, 16 * h / 1080)) - 0.1;
        assert(m.min >= floor, `${w}x${h} step ${step}: "${m.words}" at ${m.min} px (${floor} wanted)`);
        assert(m.over.length === 0, `${w}x${h} step ${step}: the strip's ${m.over} overflows`);
      }
    }
  });

  await test(browser, "an embed's Open link carries the view but not the embed's controls, and the verdict so far waits for the DUPLICATE row", async (page) => {
    await page.setViewportSize({ width: 800, height: 600 });
    await page.goto(`${base}embed.html?r31open#scenario=fenced-gc-pause&step=34&controls=full`);
    await ready(page);
    const href = await page.evaluate(() => document.querySelector("a.open")?.getAttribute("href") ?? "");
    assert(href.includes("#scenario=fenced-gc-pause&step=34"), `open link: ${href}`);
    assert(!href.includes("controls="), `the open link carries the embed's controls: ${href}`);
    // naive-gc-pause: the stale write's arrival is one step, the database's DUPLICATE the next.
    await page.setViewportSize({ width: 1920, height: 1080 });
    const verdictAt = async (step) => {
      await page.goto(`${base}index.html?r31v${step}#scenario=naive-gc-pause&step=${step}&present=1`);
      await ready(page);
      await page.waitForTimeout(300);
      return page.evaluate(() => document.querySelector(".presenter .side")?.textContent ?? "");
    };
    const dup = 33;
    assert(!/double-write/.test(await verdictAt(dup - 1)), `step ${dup - 1} already says double-write`);
    assert(/double-write/.test(await verdictAt(dup)), `step ${dup} does not say double-write`);
  });
}
