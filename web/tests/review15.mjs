// Browser tests of session 15's work on issue 7: the app leaves the picture's title block above
// the timeline's window (the header bar names the run, the explanation panel the step) while the
// embed keeps it, and a step whose legend gains or loses an entry leaves the other swatches alone.
import { test, assert, ready } from "./harness.mjs";

/** Where the picture's title and lane headers are in the timeline's window, after two frames. */
const view = (page) => page.evaluate(() => new Promise((resolve) =>
  requestAnimationFrame(() => requestAnimationFrame(() => {
    const s = document.querySelector(".timeline-scroller");
    const box = s.getBoundingClientRect();
    const t = document.querySelector("#ls-before text")?.getBoundingClientRect();
    const heads = [...document.querySelectorAll(".page [data-layer=lanes] text")]
      .filter((e) => e.getClientRects().length).map((e) => e.getBoundingClientRect().top);
    resolve({
      top: s.scrollTop,
      titleIn: !!t && t.height > 0 && t.top >= box.top && t.bottom <= box.bottom,
      headsAt: Math.min(...heads) - box.top,
    });
  }))));

export async function review15Tests(browser, base, shot) {
  await test(browser, "the app shows a run from its lane headers down, the embed from its title", async (page) => {
    for (const [w, h] of [[1280, 720], [375, 667]]) {
      await page.setViewportSize({ width: w, height: h });
      for (const present of w > 400 ? [false, true] : [false]) {
        await page.goto(`${base}index.html?t${w}${present}#scenario=fenced-gc-pause&step=6${present ? "&present=1" : ""}`);
        await ready(page);
        await page.waitForTimeout(300);
        const v = await view(page);
        assert(!v.titleIn && v.headsAt >= 0 && v.headsAt < 90,
          `${w}x${h}${present ? " presenter" : ""}: step 6 shows the lane headers at the window's top, not the title block: ${JSON.stringify(v)}`);
        await shot(page, `app-no-title-block-${present ? "presenter-" : ""}${w}x${h}`);
      }
    }
    await page.setViewportSize({ width: 800, height: 450 });
    await page.goto(`${base}embed.html?title#scenario=fenced-gc-pause&step=3&controls=minimal`);
    await ready(page);
    await page.waitForTimeout(300);
    const e = await view(page);
    assert(e.titleIn, `the embed keeps the picture's title block, its only explanation without controls: ${JSON.stringify(e)}`);
  });

  await test(browser, "a step whose legend gains or loses an entry leaves the other swatches on the page as they are", async (page) => {
    await page.goto(`${base}index.html#scenario=fenced-gc-pause&step=9`);
    await ready(page);
    // Each swatch draws its own few elements, not a copy of the whole legend.
    const sizes = await page.locator(".legend .swatch svg").evaluateAll((els) => els.map((s) => s.querySelectorAll("*").length));
    assert(sizes.length > 2 && sizes.every((n) => n <= 12) && !(await page.locator(".legend use").count()),
      `swatch element counts ${JSON.stringify(sizes)}`);
    await page.locator(".legend .swatch svg").evaluateAll((els) => els.forEach((s, i) => { s.__kept = i; }));
    const words = async () => page.locator(".legend li").allTextContents();
    const before = await words();
    let after = before;
    for (let i = 0; i < 30 && after.join("|") === before.join("|"); i++) {
      await page.keyboard.press("ArrowRight");
      await page.waitForTimeout(60);
      after = await words();
    }
    assert(after.join("|") !== before.join("|"), "the legend changed within 30 steps");
    const kept = await page.locator(".legend li").evaluateAll((lis, before) => lis
      .filter((li) => before.includes(li.textContent))
      .map((li) => li.querySelector(".swatch svg").__kept !== undefined), before);
    assert(kept.length > 0 && kept.every(Boolean), `the entries in both legends keep their swatch elements: ${JSON.stringify({ before, after, kept })}`);
  });
}
