// Browser tests of session 22's work on issue 7: a step's cost in the browser no longer grows with
// the run's length (the chunks far from the window are left out of the rendering) nor with the
// page's style rules looking down the page (`:has()`).
import { test, assert, ready } from "./harness.mjs";

/// How many chunks are left out, and whether the page looks the same with every chunk put back.
async function sameWithEveryChunk(page) {
  const far = await page.evaluate(() => document.querySelectorAll(".page svg[data-far]").length);
  const culled = await page.screenshot();
  await page.evaluate(() => document.querySelectorAll(".page svg[data-far]").forEach((e) => e.removeAttribute("data-far")));
  await page.waitForTimeout(200);
  const whole = await page.screenshot();
  return { far, same: culled.equals(whole) };
}

export async function review22Tests(browser, base, shot) {
  await test(browser, "the chunks far from the window are left out of the rendering, and the page looks the same", async (page) => {
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.emulateMedia({ reducedMotion: "reduce" });
    const views = [
      // The largest catalogue run, in the middle, at its end to scale, in presenter mode.
      ["redlock-delayed-restart", "step=700", []],
      ["redlock-delayed-restart", "step=end&time=to-scale", []],
      ["redlock-split-votes", "step=200&present=1", []],
      // Reached by keys (a jump to the end and back home), and by the mouse wheel.
      ["redlock-delayed-restart", "step=700", ["End", "Home", "ArrowRight", "ArrowRight"]],
      ["redlock-delayed-restart", "step=700", ["wheel"]],
    ];
    for (const [id, at, keys] of views) {
      await page.goto(`${base}index.html#scenario=${id}&${at}`);
      await ready(page);
      await page.waitForTimeout(800);
      for (const k of keys) {
        if (k === "wheel") {
          await page.mouse.move(600, 600);
          for (let i = 0; i < 8; i++) { await page.mouse.wheel(0, -1200); await page.waitForTimeout(60); }
        } else {
          await page.keyboard.press(k);
        }
        await page.waitForTimeout(500);
      }
      await page.waitForTimeout(500);
      const got = await sameWithEveryChunk(page);
      const what = `${id} ${at} ${keys.join(" ")}`;
      assert(got.far >= 5, `${what}: only ${got.far} chunks are left out of the rendering`);
      assert(got.same, `${what}: the page looks different with every chunk put back (${got.far} were left out)`);
    }
    await shot(page, "chunks-left-out-redlock-delayed-restart-1920x1080");
  });

  await test(browser, "the stylesheet has no :has() rule, which cost every step style work", async (page) => {
    const css = await (await page.request.get(`${base}style.css`)).text();
    const rules = css.split("\n").filter((l) => l.includes(":has("));
    assert(rules.length === 0, `style.css looks down the page with :has(): ${rules.join(" | ")}`);
  });

  await test(browser, "on a phone a tall lease chart keeps its time axis at the foot of the screen", async (page) => {
    await page.setViewportSize({ width: 375, height: 667 });
    // redlock-gc-pause's chart has eleven rows: opened at step 40, its own axis is below the fold.
    await page.goto(`${base}index.html#scenario=redlock-gc-pause&step=40&chart=lease`);
    await ready(page);
    await page.waitForTimeout(800);
    const axis = () => page.evaluate(() => {
      const copy = document.querySelector(".lease-axis");
      const chart = document.querySelector(".timeline-scroller.lease .page > svg");
      const shown = copy && getComputedStyle(copy).display !== "none" && copy.querySelector("svg");
      const at = (root, words) => [...root.querySelectorAll("text")].find((t) => t.textContent.trim() === words)?.getBoundingClientRect();
      // A tick label in view in both: the chart's own and the copy's, side by side.
      const ticks = shown ? [...copy.querySelectorAll("text")].map((t) => t.textContent.trim()).filter((w) => /^\d+ s$/.test(w)) : [];
      const pairs = ticks.map((w) => [w, at(chart, w)?.left, at(copy, w)?.left]);
      return { shown: !!shown, bottom: shown ? copy.getBoundingClientRect().bottom : null, foot: innerHeight, pairs,
        own: at(chart, ticks[0] ?? "0 s")?.top };
    });
    const opened = await axis();
    assert(opened.shown, "the chart's axis is below the fold and no copy of it shows at the screen's foot");
    assert(Math.abs(opened.bottom - opened.foot) <= 2, `the axis's copy ends at ${opened.bottom}, not at the screen's foot ${opened.foot}`);
    assert(opened.pairs.length >= 2, `the copy shows ${opened.pairs.length} time labels`);
    for (const [w, own, copy] of opened.pairs) {
      assert(Math.abs(own - copy) <= 1.5, `"${w}" is at x ${copy} in the copy but ${own} in the chart`);
    }
    await shot(page, "phone-lease-axis-kept-redlock-gc-pause-40-375x667");
    // Scrolled down to the chart's own axis, the copy goes.
    await page.evaluate(() => window.scrollBy(0, 600));
    await page.waitForTimeout(300);
    assert(!(await axis()).shown, "the copy still shows with the chart's own axis on the screen");
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForTimeout(300);
    assert((await axis()).shown, "scrolled back up, the copy does not come back");
  });

  await test(browser, "a step after scrolling far away goes back to the step at once, not in a long glide", async (page) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${base}index.html#scenario=redlock-delayed-restart&step=700&present=1`);
    await ready(page);
    await page.waitForTimeout(800);
    const scroller = page.locator(".timeline-scroller");
    // Scrolled 3,000 px up, the step far below the window; then a step forward.
    await page.evaluate(() => { document.querySelector(".timeline-scroller").scrollTop -= 3000; });
    await page.waitForTimeout(400);
    await scroller.focus();
    await page.keyboard.press("ArrowRight");
    await page.waitForTimeout(200);
    const soon = await scroller.evaluate((s) => s.scrollTop);
    await page.waitForTimeout(1200);
    const settled = await scroller.evaluate((s) => s.scrollTop);
    assert(Math.abs(soon - settled) <= 2, `200 ms after the key the window was at ${soon}, still on its way to ${settled}`);
    const row = await page.evaluate(() => {
      const s = document.querySelector(".timeline-scroller").getBoundingClientRect();
      const f = document.querySelector(".current-frame").getBoundingClientRect();
      return { top: f.top - s.top, bottom: f.bottom - s.top, height: s.height };
    });
    assert(row.top >= 0 && row.bottom <= row.height, `the step is not in the window: ${JSON.stringify(row)}`);
  });
}
