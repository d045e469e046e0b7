// Browser tests of session 23's work on issue 7: a presenter's timeline keeps more of the story
// above the current step, and a window scrolled below it into the steps still to come says so.
import { test, assert, ready } from "./harness.mjs";

/// The current step's band and the sign's state, in the timeline window's pixels.
const view = (page) => page.evaluate(() => {
  const s = document.querySelector(".timeline-scroller").getBoundingClientRect();
  const f = document.querySelector(".current-frame").getBoundingClientRect();
  const sign = document.querySelector(".unreached button");
  return {
    top: f.top - s.top, bottom: f.bottom - s.top, height: s.height,
    sign: sign && !sign.hidden ? sign.textContent : null,
    signBox: sign && !sign.hidden ? sign.getBoundingClientRect().toJSON() : null,
    window: s.toJSON(),
  };
});

export async function review23Tests(browser, base, shot) {
  await test(browser, "a window scrolled below the current step says the steps there are still to come, and goes back", async (page) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto(`${base}index.html#scenario=redlock-delayed-restart&step=700&present=1`);
    await ready(page);
    await page.waitForTimeout(800);
    assert((await view(page)).sign === null, "the sign shows with the current step in the window");
    // Wheeled 3,000 px down: bare lifelines, and the sign over them.
    await page.mouse.move(640, 300);
    await page.mouse.wheel(0, 3000);
    await page.waitForTimeout(500);
    const away = await view(page);
    assert(away.bottom < 0, `the step is still in the window after the wheel: ${JSON.stringify(away)}`);
    assert(away.sign === "▲ Back to step 700: the steps below it are still to come", `the sign reads ${JSON.stringify(away.sign)}`);
    const b = away.signBox;
    assert(b.left >= away.window.left && b.right <= away.window.right && b.top >= away.window.top && b.bottom <= away.window.bottom,
      `the sign is not inside the timeline's window: ${JSON.stringify(b)} in ${JSON.stringify(away.window)}`);
    await shot(page, "unreached-sign-redlock-delayed-restart-700-presenter-1280x720");
    // Its click brings the step back into the window, and the sign goes.
    await page.click(".unreached button");
    await page.waitForTimeout(400);
    const back = await view(page);
    assert(back.top >= 0 && back.bottom <= back.height, `the step is not in the window after the sign's click: ${JSON.stringify(back)}`);
    assert(back.sign === null, "the sign still shows with the step back in the window");
    // Scrolled up, above the step, the sign does not show: that part of the picture is drawn.
    await page.mouse.wheel(0, -3000);
    await page.waitForTimeout(500);
    assert((await view(page)).sign === null, "the sign shows over the steps already taken");
    // Step 0 has drawn nothing yet (its hint says how to start): no sign.
    await page.keyboard.press("Home");
    await page.waitForTimeout(400);
    await page.mouse.wheel(0, 2500);
    await page.waitForTimeout(500);
    assert((await view(page)).sign === null, "the sign shows at step 0");
    // The last step has nothing still to come: no sign anywhere.
    await page.keyboard.press("End");
    await page.waitForTimeout(600);
    await page.mouse.wheel(0, 5000);
    await page.waitForTimeout(500);
    assert((await view(page)).sign === null, "the sign shows at the last step");
  });

  await test(browser, "a step after a small wheel scroll down brings the story so far back above the current step", async (page) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto(`${base}index.html#scenario=fenced-gc-pause&step=20&present=1`);
    await ready(page);
    await page.waitForTimeout(800);
    const placed = await view(page);
    // 200 px down: the step is still in the window, near its top, the rest blank below it.
    await page.mouse.move(640, 300);
    await page.mouse.wheel(0, 200);
    await page.waitForTimeout(500);
    const wheeled = await view(page);
    assert(wheeled.top >= 0 && wheeled.top < placed.top - 100, `the wheel did not move the step up the window: ${JSON.stringify([placed, wheeled])}`);
    await page.locator(".timeline-scroller").focus();
    await page.keyboard.press("ArrowRight");
    await page.waitForTimeout(500);
    const stepped = await view(page);
    const middle = (stepped.top + stepped.bottom) / 2 / stepped.height;
    assert(middle >= 0.55 && stepped.bottom <= stepped.height, `after the step its row is ${(middle * 100).toFixed(0)}% down the window: ${JSON.stringify(stepped)}`);
    await shot(page, "presenter-after-wheel-and-step-fenced-21-1280x720");
  });

  await test(browser, "a hover card for a row just above the current step goes over that row, not over the current step", async (page) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.emulateMedia({ reducedMotion: "reduce" });
    for (const [id, step] of [["fenced-gc-pause", 22], ["redlock-delayed-restart", 700]]) {
      await page.goto(`${base}index.html#scenario=${id}&step=${step}&present=1`);
      await ready(page);
      await page.waitForTimeout(800);
      const cur = await page.evaluate(() => document.querySelector(".current-frame").getBoundingClientRect().toJSON());
      // The pointer on the row just above the current one, in the middle of the picture.
      await page.mouse.move(700, cur.top - 12);
      await page.mouse.move(702, cur.top - 14);
      await page.waitForTimeout(400);
      const card = await page.evaluate(() => document.querySelector(".hover-card")?.getBoundingClientRect().toJSON() ?? null);
      assert(card, `${id} #${step}: no hover card for the row above the current step`);
      assert(card.bottom <= cur.top + 2, `${id} #${step}: the card (${card.top}–${card.bottom}) covers the current step's row (from ${cur.top})`);
      await shot(page, `hover-card-over-its-row-${id}-${step}-presenter-1280x720`);
    }
  });

  await test(browser, "stepping down a long run keeps the current step in the lower part of a presenter's window", async (page) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto(`${base}index.html#scenario=redlock-delayed-restart&step=680&present=1`);
    await ready(page);
    await page.waitForTimeout(800);
    await page.locator(".timeline-scroller").focus();
    // Over twenty steps the window follows several times; wherever it has just moved to, the
    // step's middle is more than half way down (the story so far above it).
    let least = 1;
    for (let i = 0; i < 20; i++) {
      await page.keyboard.press("ArrowRight");
      await page.waitForTimeout(250);
      const v = await view(page);
      assert(v.top >= 0 && v.bottom <= v.height, `step ${681 + i} is not in the window: ${JSON.stringify(v)}`);
      least = Math.min(least, (v.top + v.bottom) / 2 / v.height);
    }
    assert(least >= 0.55, `the current step came as high as ${(least * 100).toFixed(0)}% of the way down the window`);
    await shot(page, "presenter-row-low-redlock-delayed-restart-700-1280x720");
  });
}
