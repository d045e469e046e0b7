// Browser tests of session 24's work on issue 7.
import { test, assert, ready } from "./harness.mjs";

/** The picture's own verdict line ("Verdict: …") and the timeline window, in screen pixels. */
const verdictInView = (page) => page.evaluate(() => {
  const s = document.querySelector(".timeline-scroller").getBoundingClientRect();
  const t = [...document.querySelectorAll(".timeline-scroller svg text")].find((x) => x.textContent.trim().startsWith("Verdict:"));
  const b = t && t.getBoundingClientRect();
  return { window: s.toJSON(), verdict: b && b.toJSON(), text: t && t.textContent };
});

export async function review24Tests(browser, base, shot) {
  await test(browser, "at the last step on a phone and in a narrow embed, the picture's verdict shows whole from its start", async (page) => {
    for (const [size, url] of [
      [[375, 667], "index.html#scenario=naive-gc-pause&step=end"],
      [[640, 360], "embed.html#scenario=redlock-gc-pause&step=end"],
    ]) {
      await page.setViewportSize({ width: size[0], height: size[1] });
      await page.goto(`${base}${url}`);
      await page.reload();
      await ready(page);
      await page.waitForTimeout(800);
      const v = await verdictInView(page);
      assert(v.verdict, `${url}: no verdict line in the picture`);
      assert(v.text.includes("double-write"), `${url}: the verdict reads ${JSON.stringify(v.text)}`);
      assert(v.verdict.left >= v.window.left - 0.5 && v.verdict.bottom <= v.window.bottom + 0.5,
        `${url} at ${size.join("x")}: the verdict is cut (${JSON.stringify(v.verdict)} in the window ${JSON.stringify(v.window)})`);
      await shot(page, `verdict-at-end-${size.join("x")}`);
    }
  });

  await test(browser, "a late answer drawn on an earlier row above the window moves the window up only far enough to show it", async (page) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto(`${base}index.html#scenario=redlock-split-votes&step=109&present=1`);
    await ready(page);
    await page.waitForTimeout(800);
    const at = () => page.evaluate(() => {
      const s = document.querySelector(".timeline-scroller");
      const w = s.getBoundingClientRect();
      const f = document.querySelector(".current-frame").getBoundingClientRect();
      return { top: s.scrollTop, row: [f.top - w.top, f.bottom - w.top], height: w.height };
    });
    const before = await at();
    await page.keyboard.press("ArrowRight");
    await page.waitForTimeout(500);
    const after = await at();
    // #110 is C's DELEX arriving at redis-3, drawn on row #100, nine rows above #109's.
    assert(after.top < before.top, `the window did not move up to #110: ${JSON.stringify([before, after])}`);
    assert(after.row[0] >= 0 && after.row[1] <= after.height, `#110's row is not in the window: ${JSON.stringify(after)}`);
    // Three quarters down the window, it moved 296 px up, and as far down again at #111.
    assert(before.top - after.top < 200, `the window moved ${before.top - after.top} px up for #110's row`);
    await shot(page, "late-answer-redlock-split-votes-110-presenter-1280x720");
  });
}
