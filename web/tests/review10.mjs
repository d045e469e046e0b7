// Browser tests of session 10's work on issue 7: a step puts in only the timeline elements that
// changed (and the page then holds exactly what a fresh load of that step holds), presenter mode's
// readable zoom on wide runs, and phone embeds that show every lane.
import { test, assert, ready, frames, readablePx } from "./harness.mjs";


/** The elements of every changing piece of the picture, in order, as markup. */
const livePieces = (page) => page.evaluate(() =>
  Object.fromEntries([...document.querySelectorAll(".ls-live, #ls-before, #ls-after")]
    .map((g) => [g.id, [...g.children].map((c) => c.outerHTML)])));

/** Waits until the step box says `n`. */
const atStep = (page, n) => page.waitForFunction((n) => document.querySelector("input[aria-label='Current step']")?.value === String(n), n);

export async function review10Tests(browser, base, shot) {
  await test(browser, "a step puts in only the timeline elements that changed, and the page then holds what a fresh load of that step does", async (page) => {
    for (const [id, start] of [["redlock-split-votes", 200], ["fenced-gc-pause", 20]]) {
      await page.goto(`${base}index.html#scenario=${id}&step=${start}`);
      await ready(page);
      await frames(page);
      // Elements every step keeps as they are: the background and the title of the title block.
      const marked = await page.evaluate(() => {
        const kept = [...document.querySelector("#ls-before").children].slice(0, 2);
        kept.forEach((el, i) => { el.dataset.keep = String(i); });
        return kept.length;
      });
      assert(marked === 2, `${id}: the title block has ${marked} elements`);
      let step = start;
      for (const key of ["ArrowRight", "ArrowRight", "ArrowRight", "ArrowLeft", "ArrowRight", "ArrowRight"]) {
        await page.keyboard.press(key);
        step += key === "ArrowRight" ? 1 : -1;
        await atStep(page, step);
        await frames(page);
      }
      const still = await page.evaluate(() => [...document.querySelectorAll("#ls-before > [data-keep]")].length);
      assert(still === 2, `${id}: a step put the title block's unchanged elements in again (${still} of 2 kept)`);
      const pieces = await livePieces(page);
      // The same step opened fresh (every piece put in whole) holds the same elements in the same order.
      await page.goto(`${base}index.html?fresh#scenario=${id}&step=${step}`);
      await ready(page);
      await atStep(page, step);
      await frames(page);
      const fresh = await livePieces(page);
      for (const [layer, els] of Object.entries(fresh)) {
        const got = (pieces[layer] ?? []).map((s) => s.replace(/ data-keep="\d"/, ""));
        assert(JSON.stringify(got) === JSON.stringify(els),
          `${id} step ${step} ${layer}: stepping left ${got.length} elements, a fresh load draws ${els.length}; first difference at ${got.findIndex((s, i) => s !== els[i])}`);
      }
    }
  });

  await test(browser, "presenter mode draws a wide Redlock run's labels at 16 px, following the current step sideways; Z fits the width", async (page) => {
    // At 1920x1080 Redlock runs fit (two-line labels made them narrower: see review16.mjs); at
    // 1280x720 this one is still too wide for its readable labels (10.7 px there).
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${base}index.html#scenario=redlock-split-votes&step=60&present=1`);
    await ready(page);
    await page.waitForSelector(".app.presenter .timeline-scroller.zoom-readable");
    const check = async () => {
      await frames(page);
      await page.waitForTimeout(700);
      return page.evaluate(() => {
        const s = document.querySelector(".timeline-scroller");
        const svg = document.querySelector("#ls-timeline");
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        const labels = [...document.querySelectorAll(".page [data-layer=labels] text")].map((t) => Number(t.getAttribute("font-size"))).filter((n) => n > 0);
        const cur = document.querySelector("rect.current-outline");
        const box = s.getBoundingClientRect();
        const r = cur.getBoundingClientRect();
        const focus = Number(cur.dataset.focus ?? (cur.dataset.span ?? "0 0").split(" ")[0]) * scale + svg.getBoundingClientRect().left;
        return {
          label: Math.min(...labels) * scale, sideways: s.scrollWidth > s.clientWidth + 1,
          rowIn: r.top >= box.top && r.bottom <= box.bottom, focusIn: focus >= box.left && focus <= box.right,
          button: document.querySelector("[data-testid=zoom]")?.textContent,
        };
      });
    };
    let seen = await check();
    assert(seen.label >= readablePx(720) && seen.sideways && seen.rowIn && seen.focusIn && seen.button === "Fit the width",
      `readable zoom at step 60: ${JSON.stringify(seen)}`);
    await shot(page, "presenter-readable-redlock-split-votes-60-1280x720");
    // Stepping on keeps the step's arrows in view, sideways too.
    for (let i = 0; i < 12; i++) await page.keyboard.press("ArrowRight");
    await atStep(page, 72);
    seen = await check();
    assert(seen.rowIn && seen.focusIn, `readable zoom at step 72: ${JSON.stringify(seen)}`);
    // The lane names kept at the top are one line: they cover little of the rows under them.
    const chips = await page.evaluate(() => {
      const row = document.querySelector(".lane-heads");
      return { shown: !row.hidden, tall: Math.max(...[...row.querySelectorAll(".lane-head")].map((h) => h.getBoundingClientRect().height)) };
    });
    assert(chips.shown && chips.tall <= 32, `the kept lane names: ${JSON.stringify(chips)}`);
    await shot(page, "presenter-readable-redlock-split-votes-72-1280x720");
    await page.keyboard.press("z");
    await page.waitForSelector(".timeline-scroller.zoom-fit");
    seen = await check();
    assert(!seen.sideways && seen.rowIn && seen.button === "Zoom in", `fit zoom: ${JSON.stringify(seen)}`);
    await page.click("[data-testid=zoom]");
    await page.waitForSelector(".timeline-scroller.zoom-readable");
  });

  await test(browser, "a phone embed opens at 12 px labels at the current step (fitted, they were 3 px); the button shows every lane, a tap zooms back in", async (page) => {
    const seen = () => page.evaluate(() => {
      const s = document.querySelector(".timeline-scroller");
      const box = s.getBoundingClientRect();
      const svg = document.querySelector("#ls-timeline");
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      const inView = (r) => r.width > 0 && r.left >= box.left - 1 && r.right <= box.right + 1 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
      const lanes = [...document.querySelectorAll(".page [data-layer=lanes] text")].filter((t) => t.getClientRects().length && inView(t.getBoundingClientRect())).map((t) => t.textContent.trim());
      const cur = document.querySelector("rect.current-outline");
      const focus = Number(cur.dataset.focus ?? (cur.dataset.span ?? "0 0").split(" ")[0]) * scale + svg.getBoundingClientRect().left;
      return { lanes, label: 16 * scale, sideways: s.scrollWidth > s.clientWidth + 1, focusIn: focus >= box.left && focus <= box.right, button: document.querySelector("[data-testid=zoom]")?.textContent };
    });
    await page.setViewportSize({ width: 375, height: 667 });
    await page.goto(`${base}embed.html#scenario=fenced-gc-pause&step=34&controls=minimal`);
    await ready(page);
    await frames(page);
    await page.waitForTimeout(700);
    // Readable at first, scrolled sideways to where step 34 arrives (the db refusing the stale write).
    let now = await seen();
    assert(now.label >= 11.9 && now.sideways && now.focusIn && now.button === "Fit the width", `zoomed in at first: ${JSON.stringify(now)}`);
    assert(await page.locator(".scroll-hint").isVisible(), "the scroll hint shows, zoomed in");
    await shot(page, "embed-phone-zoomed-fenced-34-375x667");
    // The button shows every lane.
    await page.click("[data-testid=zoom]");
    await page.waitForSelector(".timeline-scroller.zoom-fit");
    await frames(page);
    now = await seen();
    assert(["A", "redis", "B", "db"].every((n) => now.lanes.includes(n)) && !now.sideways && now.button === "Zoom in",
      `every lane after a tap: ${JSON.stringify(now)}`);
    await shot(page, "embed-phone-fit-fenced-34-375x667");
    // Stepping still works; a tap on the picture zooms back in, to the current step.
    await page.keyboard.press("ArrowRight");
    await atStep(page, 35);
    await page.click(".page");
    await page.waitForSelector(".timeline-scroller.zoom-readable");
    await frames(page);
    await page.waitForTimeout(700);
    now = await seen();
    assert(now.label >= 11.9 && now.focusIn, `zoomed back in at step 35: ${JSON.stringify(now)}`);
    assert((await page.locator(".hover-card").count()) === 0, "the tap that zoomed in shows no hover card over the picture");
    // A wide Redlock run on a phone: readable first too.
    await page.goto(`${base}embed.html#scenario=redlock-split-votes&step=60&controls=minimal`);
    await page.reload();
    await ready(page);
    await frames(page);
    await page.waitForTimeout(700);
    now = await seen();
    assert(now.label >= 11.9 && now.sideways && now.focusIn, `redlock-split-votes on a phone: ${JSON.stringify(now)}`);
    await shot(page, "embed-phone-zoomed-redlock-split-votes-60-375x667");
  });

  // Session 23 put the row three quarters down (was 0.6 of the way, then stepped on from there).
  await test(browser, "a followed row sits low in the timeline's window, the rows before it above", async (page) => {
    for (const [id, step, present] of [["redlock-split-votes", 200, ""], ["redlock-delayed-restart", 700, "&present=1"]]) {
      await page.goto(`${base}index.html#scenario=${id}&step=${step}${present}`);
      await ready(page);
      await frames(page);
      await page.waitForTimeout(300);
      for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowDown");
      await frames(page);
      await page.waitForTimeout(900);
      const at = await page.evaluate(() => {
        const box = document.querySelector(".timeline-scroller").getBoundingClientRect();
        const cur = document.querySelector("rect.current-outline").getBoundingClientRect();
        return { at: ((cur.top + cur.bottom) / 2 - box.top) / box.height, inside: cur.bottom <= box.bottom };
      });
      console.log(`      ${id}: the current row ${(at.at * 100).toFixed(0)}% down the window`);
      assert(at.at > 0.63 && at.at < 0.95 && at.inside, `${id}: the current row is ${(at.at * 100).toFixed(0)}% down the window (inside: ${at.inside})`);
    }
  });
}
