// Browser tests of session 36's work, from a presenter's rehearsal review: no focus ring after a
// step number typed into its box; F on a presenter-mode page not yet full screen makes it full
// screen; Z on a run that fits says so, and a zoom does not carry over to the next run; the
// to-scale view keeps presenter mode's type floor; P at the last step does not start again; a
// link carries the play speed; J past a retry loop's polling.
import { assert, present, frames, ready, readablePx, test } from "./harness.mjs";

/** The step the step number box shows. */
const stepNow = (page) => page.locator("input[aria-label='Current step']").inputValue();

/** Waits until the step number box shows `n`. */
const atStep = (page, n) => page.waitForFunction((n) =>
  document.querySelector("input[aria-label='Current step']")?.value === String(n), n);

/** The timeline's focus ring as drawn ("none" without one) and whether it has the focus. */
const ring = (page) => page.evaluate(() => {
  const s = document.querySelector(".timeline-scroller");
  const css = getComputedStyle(s);
  return { focused: document.activeElement === s, outline: css.outlineStyle, width: css.outlineWidth };
});

/** The smallest sizes the timeline's words are drawn at on the screen: its message labels and
 * every word of the picture. */
const drawnSizes = (page) => page.evaluate(() => {
  const svg = document.querySelector("#ls-timeline");
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const size = (t) => Number(t.getAttribute("font-size") || parseFloat(getComputedStyle(t).fontSize));
  const all = [...document.querySelectorAll(".page svg text")].map(size).filter((n) => n > 0);
  const labels = [...document.querySelectorAll(".page [data-layer=labels] text")].map(size).filter((n) => n > 0);
  return { label: Math.min(...labels) * scale, any: Math.min(...all) * scale, scale };
});

export async function review36Tests(browser, base, shot) {
  await test(browser, "a step number typed into its box in presenter mode leaves the timeline focused without a ring; Tab back shows one", async (page) => {
    await present(page, base, "fenced-gc-pause", { width: 1920, height: 1080, tag: "ring" });
    await page.click("input[aria-label='Current step']");
    await page.fill("input[aria-label='Current step']", "30");
    await page.keyboard.press("Enter");
    await atStep(page, 30);
    await frames(page);
    let seen = await ring(page);
    assert(seen.focused && seen.outline === "none", `after Enter in the step box: ${JSON.stringify(seen)}`);
    await page.keyboard.press("ArrowRight");
    await atStep(page, 31);
    await frames(page);
    seen = await ring(page);
    assert(seen.focused && seen.outline === "none", `a step later: ${JSON.stringify(seen)}`);
    // ↓ steps to the next row, as on a clicked timeline (not the keyboard's row picker).
    await page.keyboard.press("ArrowDown");
    await page.waitForFunction(() => Number(document.querySelector("input[aria-label='Current step']")?.value) > 31);
    await shot(page, "review36-typed-step-no-ring");
    // Reached with the keyboard, it shows its ring.
    await page.keyboard.press("Shift+Tab");
    await page.keyboard.press("Tab");
    await frames(page);
    seen = await ring(page);
    assert(seen.focused && seen.outline !== "none", `tabbed back to: ${JSON.stringify(seen)}`);
  });

  await test(browser, "F on a present=1 link not yet full screen makes it full screen and keeps presenter mode; F again leaves, as F does without full screen", async (page) => {
    await page.goto(`${base}index.html#scenario=fenced-gc-pause&step=12&present=1`);
    await ready(page);
    await page.waitForSelector(".app.presenter");
    // Headless Chromium may grant the link full screen: leave it, as a real browser never
    // entered it.
    const atLoad = await page.evaluate(() => !!document.fullscreenElement);
    await page.evaluate(() => document.fullscreenElement ? document.exitFullscreen() : null);
    await page.waitForFunction(() => !document.fullscreenElement);
    const enabled = await page.evaluate(() => document.fullscreenEnabled);
    assert(enabled, "this browser offers no full screen to test with");
    await page.keyboard.press("f");
    await page.waitForTimeout(400);
    const after = await page.evaluate(() => ({
      presenter: !!document.querySelector(".app.presenter"), full: !!document.fullscreenElement,
    }));
    assert(after.presenter && after.full, `after the first F: ${JSON.stringify(after)} (full screen at load: ${atLoad})`);
    // So too after a reload in presenter mode (the hash keeps present=1).
    await page.reload();
    await ready(page);
    await page.waitForSelector(".app.presenter");
    await page.evaluate(() => document.fullscreenElement ? document.exitFullscreen() : null);
    await page.waitForFunction(() => !document.fullscreenElement);
    await page.keyboard.press("f");
    await page.waitForTimeout(400);
    const reloaded = await page.evaluate(() => ({
      presenter: !!document.querySelector(".app.presenter"), full: !!document.fullscreenElement,
    }));
    assert(reloaded.presenter && reloaded.full, `after a reload and F: ${JSON.stringify(reloaded)}`);
    await page.keyboard.press("f");
    await page.waitForFunction(() => !document.querySelector(".app.presenter"));
    await page.waitForFunction(() => !document.fullscreenElement);
    // Where the browser has no full screen to give, F leaves presenter mode, as before.
    const other = await page.context().newPage();
    await other.addInitScript(() => Object.defineProperty(Document.prototype, "fullscreenEnabled", { get: () => false }));
    await other.goto(`${base}index.html#scenario=fenced-gc-pause&step=12&present=1`);
    await ready(other);
    await other.waitForSelector(".app.presenter");
    await other.evaluate(() => document.fullscreenElement ? document.exitFullscreen() : null);
    await other.keyboard.press("f");
    await other.waitForFunction(() => !document.querySelector(".app.presenter"));
  });

  await test(browser, "Z on a presenter-mode run that fits says so and changes nothing; the next run opens at readable labels", async (page) => {
    await present(page, base, "naive-gc-pause", { width: 1280, height: 720, step: 10, tag: "zfit" });
    await page.waitForSelector(".timeline-scroller[data-snug]");
    await page.keyboard.press("z");
    await page.waitForFunction(() => document.querySelector("[data-testid=flash]")?.textContent.includes("nothing to zoom"));
    assert(await page.locator(".timeline-scroller.zoom-readable").count() === 1, "Z changed the zoom of a run that fits");
    await shot(page, "review36-z-on-a-run-that-fits-1280");
    // The words go again.
    await page.waitForFunction(() => document.querySelector("[data-testid=flash]")?.textContent === "", null, { timeout: 5000 });
    // On a run too wide at readable labels Z fits the width, and the next run opens at its own zoom.
    await page.keyboard.press("s");
    await page.waitForTimeout(300);
    await page.keyboard.type("redlock-gc");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.title.startsWith("Redlock") || location.hash.includes("redlock-gc-pause"));
    await page.waitForSelector(".timeline-scroller.zoom-readable");
    for (let i = 0; i < 10; i++) await page.keyboard.press("ArrowRight");
    await atStep(page, 10);
    await page.waitForTimeout(500);
    const sizes = await drawnSizes(page);
    assert(sizes.label >= readablePx(720), `redlock-gc-pause opened with labels at ${sizes.label.toFixed(1)} px`);
    await page.keyboard.press("z");
    await page.waitForSelector(".timeline-scroller.zoom-fit");
    await page.keyboard.press("s");
    await page.waitForTimeout(300);
    await page.keyboard.type("fenced gc");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => location.hash.includes("fenced-gc-pause"));
    await page.waitForSelector(".timeline-scroller.zoom-readable");
  });

  await test(browser, "Z on the page's run that fits its window says so and keeps the zoom", async (page) => {
    await page.goto(`${base}index.html#scenario=naive-gc-pause&step=5`);
    await ready(page);
    await page.waitForTimeout(500);
    await page.keyboard.press("z");
    await page.waitForFunction(() => document.querySelector("[data-testid=flash]")?.textContent.includes("nothing to zoom"));
    assert(await page.locator(".timeline-scroller.zoom-readable").count() === 1, "Z changed the zoom of a run that fits");
  });

  for (const [width, height] of [[1920, 1080], [1280, 720]]) {
    await test(browser, `presenter mode's to-scale view at ${width}x${height} draws its words no smaller than the logical view's floor`, async (page) => {
      await page.setViewportSize({ width, height });
      await page.goto(`${base}index.html#scenario=fenced-gc-pause&step=33&present=1&mode=scale`);
      await ready(page);
      await page.waitForSelector(".app.presenter .timeline-scroller.zoom-readable");
      await page.waitForTimeout(800);
      await frames(page);
      const sizes = await drawnSizes(page);
      // The logical view's: labels at 16 px on a 1080 px tall screen, the notes and step column
      // (14 px in the picture) in step, and as much smaller as a shorter screen is.
      const least = 14 * Math.min(1, height / 1080) - 0.1;
      assert(sizes.label >= readablePx(height) && sizes.any >= least,
        `to scale: labels at ${sizes.label.toFixed(2)} px (at least ${readablePx(height).toFixed(2)}), smallest words at ${sizes.any.toFixed(2)} px (at least ${least.toFixed(2)})`);
      // Stepping follows the step sideways: its row stays in the window.
      await page.keyboard.press("ArrowRight");
      await atStep(page, 34);
      await page.waitForTimeout(700);
      const inView = await page.evaluate(() => {
        const s = document.querySelector(".timeline-scroller").getBoundingClientRect();
        const r = document.querySelector("rect.current-outline")?.getBoundingClientRect();
        return !!r && r.top >= s.top && r.bottom <= s.bottom && r.right > s.left && r.left < s.right;
      });
      assert(inView, "the current step's row left the window");
      await shot(page, `review36-to-scale-${width}x${height}-step34`);
    }, { viewport: { width, height } });
  }

  await test(browser, "P or Play at the last step does not start the run again: it says so, and Home then Play replays", async (page) => {
    await page.goto(`${base}index.html#scenario=fenced-gc-pause&step=end`);
    await ready(page);
    const last = await stepNow(page);
    await page.keyboard.press("p");
    await page.waitForFunction(() => document.querySelector("[data-testid=flash]")?.textContent.includes("At the last step"));
    await shot(page, "review36-p-at-the-last-step");
    await page.waitForTimeout(1300);
    assert(await stepNow(page) === last, `P at the last step went to step ${await stepNow(page)}`);
    assert((await page.locator(".controls .play").textContent()).trim() === "Play", "P at the last step started playing");
    // The button alike (a click there is no more meant to restart than P).
    await page.click(".controls .play");
    await page.waitForTimeout(1300);
    assert(await stepNow(page) === last, `Play at the last step went to step ${await stepNow(page)}`);
    // Played to the end, it stops there; P there does nothing.
    await page.keyboard.press("Home");
    await atStep(page, 0);
    await page.selectOption(".controls select[aria-label='Play speed']", "4");
    await page.click(".controls .play");
    await page.waitForFunction(() => document.querySelector(".controls .play")?.textContent.trim() === "Pause");
    await page.click(".controls [aria-label='Last step (End)']");
    await page.waitForFunction(() => document.querySelector(".controls .play")?.textContent.trim() === "Play");
    await page.keyboard.press("p");
    await page.waitForTimeout(400);
    assert(await stepNow(page) === last, `P at the end of playing went to step ${await stepNow(page)}`);
  });

  await test(browser, "a link carries the play speed and restores it; a bad speed is named and the run still opens", async (page) => {
    await page.goto(`${base}index.html#scenario=fenced-gc-pause&step=4`);
    await ready(page);
    await page.selectOption(".controls select[aria-label='Play speed']", "2");
    await page.waitForFunction(() => location.hash.includes("&speed=2"));
    const link = await page.locator("[data-testid=share-link]").inputValue();
    assert(link.includes("&speed=2"), `the share link is ${link}`);
    await page.goto("about:blank");
    await page.goto(link);
    await ready(page);
    const speed = await page.locator(".controls select[aria-label='Play speed']").inputValue();
    assert(speed === "2", `reopened, the speed is ${speed}`);
    assert((await page.locator(".speed-cycle").textContent()).trim() === "2×", "the phone's speed button disagrees");
    await page.goto("about:blank");
    await page.goto(`${base}index.html#scenario=fenced-gc-pause&step=4&speed=3`);
    await ready(page);
    const notice = await page.locator(".notice").textContent();
    assert(notice.includes("“speed=3”") && notice.includes("0.5, 1, 2, 4 or 8") && notice.includes("step 4"),
      `the notice reads ${JSON.stringify(notice)}`);
    assert(await stepNow(page) === "4", "the run did not open at its step");
  });

  await test(browser, "J and Skip retries go past a what-if's polling on naive-happy-path to the lock's expiry", async (page) => {
    await present(page, base, "naive-happy-path", { width: 1920, height: 1080, step: 6, tag: "notable" });
    // The what-if menu is in the side panel, which presenter mode hides: leave it to inject.
    await page.keyboard.press("f");
    await page.waitForFunction(() => !document.querySelector(".app.presenter"));
    await page.click("text=Inject now");
    await page.waitForSelector("[data-testid=branch]");
    const total = Number((await page.locator("[data-testid=step-of]").textContent()).replace(/\D/g, ""));
    assert(total > 150, `the branch has ${total} steps`);
    await page.keyboard.press("f");
    await page.waitForSelector(".app.presenter");
    // Up to B's first "(nil)" every step is its own; then one press crosses the polling.
    let presses = 0;
    while (Number(await stepNow(page)) < 100 && presses < 20) {
      await page.keyboard.press("j");
      presses++;
      await page.waitForTimeout(120);
    }
    const landed = Number(await stepNow(page));
    const label = await page.locator(".explanation").textContent();
    assert(landed > 100 && presses <= 10 && label.includes("expired"),
      `after ${presses} presses of J at step ${landed}: ${JSON.stringify(label.slice(0, 120))}`);
    await shot(page, "review36-past-the-polling-1920");
    // The button does the same, and is shown only for a run with a retry loop.
    await page.keyboard.press("Home");
    await atStep(page, 0);
    for (let i = 0; i < 16; i++) await page.click(".controls .notable");
    assert(Number(await stepNow(page)) > 100, `16 clicks of Skip retries reached step ${await stepNow(page)}`);
    await page.goto(`${base}index.html#scenario=fenced-gc-pause`);
    await ready(page);
    assert(await page.locator(".controls .notable").count() === 0, "fenced-gc-pause, with no retry loop, shows Skip retries");
    assert((await page.locator("footer.keys").textContent()).includes("J past repeated retries"), "the key help does not name J");
  });
}
