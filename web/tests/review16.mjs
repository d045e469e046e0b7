// Browser tests of session 16's work on issue 7: long labels and notes on two lines (lockstep-render)
// make Redlock runs narrow enough to fit a 1920x1080 projector without moving sideways, and
// following a step shows both its ends when they fit the window.
import { test, assert, ready } from "./harness.mjs";

const atStep = (page, n) => page.waitForFunction((n) => document.querySelector("input[aria-label='Current step']")?.value === String(n), n);

/** The picture's scale and sideways state, and the smallest label on screen, after two frames. */
const state = (page) => page.evaluate(() => new Promise((resolve) =>
  requestAnimationFrame(() => requestAnimationFrame(() => {
    const s = document.querySelector(".timeline-scroller");
    const svg = document.querySelector("#ls-timeline");
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const sizes = [...document.querySelectorAll(".page [data-layer=labels] text")]
      .map((t) => Number(t.getAttribute("font-size"))).filter((n) => n > 0);
    const two = [...document.querySelectorAll(".page [data-layer=labels] text")]
      .filter((t) => t.textContent.trim() === "→ 5 (redis-1…redis-5)").length;
    resolve({ wide: s.scrollWidth > s.clientWidth + 1, left: s.scrollLeft, label: Math.min(...sizes) * scale, twoLine: two });
  }))));

export async function review16Tests(browser, base, shot) {
  await test(browser, "presenter mode fits Redlock runs in 1920x1080 with no move sideways, labels 11 px or more", async (page) => {
    for (const id of ["redlock-gc-pause", "redlock-happy-path", "redlock-clock-jump"]) {
      await page.goto(`${base}index.html#scenario=${id}&step=1&present=1`);
      await ready(page);
      for (let step = 2; step <= 40; step++) {
        await page.keyboard.press("ArrowRight");
        await atStep(page, step);
        if (step % 6 !== 0) continue;
        const now = await state(page);
        assert(!now.wide && now.left === 0, `${id} step ${step}: scrolls sideways: ${JSON.stringify(now)}`);
        assert(now.label >= 11, `${id} step ${step}: labels ${now.label.toFixed(1)} px`);
      }
      const now = await state(page);
      // A round's label before its nearest head: the message, then who takes part on a second line.
      if (id === "redlock-gc-pause") {
        await page.keyboard.press("End");
        await page.waitForTimeout(600);
        const end = await state(page);
        assert(end.twoLine >= 2, `the DELEX rounds' second lines: ${JSON.stringify(end)}`);
      }
      await shot(page, `presenter-fits-${id}-1920x1080`);
      assert(now.label >= 11, `${id}: ${JSON.stringify(now)}`);
    }
  });
}
