// Browser tests of session 14's work on issue 7: a 640 px embed zoomed in keeps its step column
// pinned (the README says it does up to a third of the frame), and its full controls take two
// lines there, not three; presenter mode shows the last step the same way however it was reached.
import { test, assert, ready, openZoomed } from "./harness.mjs";

export async function review14Tests(browser, base, shot) {
  await test(browser, "a zoomed 640x360 embed of a wide run keeps its step column pinned while it scrolls sideways", async (page) => {
    await page.setViewportSize({ width: 640, height: 360 });
    await openZoomed(page, `${base}embed.html?pin-640#scenario=redlock-gc-pause&step=34&controls=minimal`, 400);
    const v = await page.evaluate(() => {
      const s = document.querySelector(".timeline-scroller");
      const pin = document.querySelector(".pin-box").getBoundingClientRect();
      const win = s.getBoundingClientRect();
      return { scrolled: s.scrollLeft, unpinned: s.hasAttribute("data-unpinned"), pinLeft: pin.left - win.left, pinWidth: pin.width, window: s.clientWidth };
    });
    assert(v.scrolled > 0, `the run should be scrolled sideways to step 34: ${JSON.stringify(v)}`);
    assert(!v.unpinned, `the step column scrolled away with the picture: ${JSON.stringify(v)}`);
    assert(Math.abs(v.pinLeft) <= 2, `the step column is not at the window's left: ${JSON.stringify(v)}`);
    await shot(page, "embed-zoomed-redlock-gc-pause-34-640x360-pinned");
  });

  await test(browser, "an embed's full controls take two lines in a 640x360 frame, the Open link beside them", async (page) => {
    await page.setViewportSize({ width: 640, height: 360 });
    await page.goto(`${base}embed.html?bar-640#scenario=fenced-gc-pause&step=34&controls=full`);
    await ready(page);
    const v = await page.evaluate(() => {
      const bar = document.querySelector(".embed-bar").getBoundingClientRect();
      const open = document.querySelector(".embed-bar a.open").getBoundingClientRect();
      const first = document.querySelector(".embed-bar button").getBoundingClientRect();
      return { bar: bar.height, openTop: open.top, firstTop: first.top, firstBottom: first.bottom };
    });
    assert(v.bar <= 72, `the control bar takes ${v.bar} px of a 360 px frame (two lines are about 66): ${JSON.stringify(v)}`);
    assert(v.openTop < v.firstBottom, `the Open link is not on the first line: ${JSON.stringify(v)}`);
    await shot(page, "embed-full-controls-640x360-two-lines");
  });

  await test(browser, "presenter mode shows the last step at one scroll whether reached by End, stepping or a link", async (page) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    const where = () => page.evaluate(() => {
      const s = document.querySelector(".timeline-scroller");
      return { step: document.querySelector("input[aria-label='Current step']").value, top: Math.round(s.scrollTop), left: Math.round(s.scrollLeft) };
    });
    const still = () => page.waitForTimeout(700);
    await page.goto(`${base}?end-1#scenario=fenced-gc-pause`);
    await ready(page);
    await page.keyboard.press("f");
    await still();
    await page.keyboard.press("End");
    await still();
    const byEnd = await where();
    await page.keyboard.press("Home");
    await still();
    for (let i = 0; i < 41; i++) {
      await page.keyboard.press("ArrowRight");
      await page.waitForTimeout(40);
    }
    await still();
    const byStepping = await where();
    await page.goto(`${base}?end-2#scenario=fenced-gc-pause&step=end`);
    await ready(page);
    await page.keyboard.press("f");
    await still();
    const byLink = await where();
    const all = JSON.stringify({ byEnd, byStepping, byLink });
    assert(byEnd.step === "41" && byStepping.step === "41" && byLink.step === "41", `not all at the last step: ${all}`);
    assert(Math.abs(byEnd.top - byStepping.top) <= 2 && Math.abs(byEnd.top - byLink.top) <= 2, `the last step lands at different scrolls: ${all}`);
    await shot(page, "presenter-fenced-gc-pause-end-1280x720");
  });

  await test(browser, "presenter mode opens redlock-clock-jump's step 1 (a partition, a note over every lane) at the left edge", async (page) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${base}?global-note#scenario=redlock-clock-jump&step=1`);
    await ready(page);
    await page.keyboard.press("f");
    await page.waitForTimeout(700);
    const v = await page.evaluate(() => {
      const s = document.querySelector(".timeline-scroller");
      return { step: document.querySelector("input[aria-label='Current step']").value, left: s.scrollLeft, wide: s.scrollWidth > s.clientWidth };
    });
    assert(v.step === "1" && v.wide, `expected a wide picture at step 1: ${JSON.stringify(v)}`);
    assert(v.left === 0, `a note over every lane scrolled the picture sideways: ${JSON.stringify(v)}`);
    await shot(page, "presenter-redlock-clock-jump-1-1280x720");
  });

  await test(browser, "presenter mode at 1280x720 shows a long arrow's label whole beside its sender (redlock-gc-pause step 23)", async (page) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${base}?words#scenario=redlock-gc-pause`);
    await ready(page);
    await page.keyboard.press("f");
    await page.waitForTimeout(500);
    for (let i = 0; i < 23; i++) {
      await page.keyboard.press("ArrowRight");
      await page.waitForTimeout(60);
    }
    await page.waitForTimeout(900);
    const v = await page.evaluate(() => {
      const s = document.querySelector(".timeline-scroller");
      const win = s.getBoundingClientRect();
      const pin = document.querySelector(".pin-box").getBoundingClientRect();
      const words = [...document.querySelectorAll("#ls-labels-live text")]
        .filter((t) => t.textContent.includes("read status batch-42"))
        .map((t) => t.getBoundingClientRect())
        .filter((r) => r.width > 0);
      return { step: document.querySelector("input[aria-label='Current step']").value, from: pin.right, to: win.left + s.clientWidth,
        words: words.map((r) => [Math.round(r.left), Math.round(r.right)]) };
    });
    assert(v.step === "23" && v.words.length > 0, `step 23's label not found: ${JSON.stringify(v)}`);
    assert(v.words.every(([l, r]) => l >= v.from - 1 && r <= v.to + 1), `step 23's label is cut by the window: ${JSON.stringify(v)}`);
    await shot(page, "presenter-redlock-gc-pause-23-1280x720");
  });

  await test(browser, "presenter mode at 1280x720 keeps the current row clear of the pills naming lanes out of view", async (page) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${base}?pills#scenario=redlock-gc-pause`);
    await ready(page);
    await page.keyboard.press("f");
    await page.waitForTimeout(500);
    const covered = [];
    for (let step = 1; step <= 40; step++) {
      await page.keyboard.press("ArrowRight");
      await page.waitForTimeout(200);
      const hit = await page.evaluate(() => {
        const c = document.querySelector(".current-outline");
        if (!c) return null;
        const r = c.getBoundingClientRect();
        const pills = [...document.querySelectorAll(".lanes-off span")].filter((e) => !e.hidden && e.getBoundingClientRect().width).map((e) => e.getBoundingClientRect());
        return pills.some((q) => q.top < r.bottom - 3 && q.bottom > r.top + 3) ? `${Math.round(r.top)}-${Math.round(r.bottom)}` : null;
      });
      if (hit) covered.push(`step ${step} at ${hit}`);
    }
    assert(covered.length === 0, `the pills cover the current row: ${covered.join("; ")}`);
    await shot(page, "presenter-redlock-gc-pause-40-pills-1280x720");
  });
}

