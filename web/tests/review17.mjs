// Browser tests of session 17's work on issue 7: the current step's caption stays in its own row,
// a phone's lane chips do not run into each other, a phone's lease chart shows the time before the
// current step beside its pinned names, and a row's step list with gaps reads as a list.
import { test, assert, ready } from "./harness.mjs";

export async function review17Tests(browser, base, shot) {
  await test(browser, "the current step's caption sits in its own row, above its arrow's line, not over the row above", async (page) => {
    for (const [w, h, present] of [[1280, 720, "&present=1"], [375, 667, ""]]) {
      await page.setViewportSize({ width: w, height: h });
      await page.goto(`${base}index.html#scenario=redlock-gc-pause&step=24${present}`);
      await ready(page);
      await page.waitForTimeout(500);
      const seen = await page.evaluate(() => {
        const cap = document.querySelector(".step-caption");
        const c = cap.getBoundingClientRect();
        const row = document.querySelector("rect.current-outline").getBoundingClientRect();
        // The step column's text of the row is centred on its line, where the arrow runs.
        // The one shown (the line's text for later steps waits hidden in its group).
        const gutter = [...document.querySelectorAll(".page svg text")].find((t) => t.textContent.trim().startsWith("#23-24") && t.getBoundingClientRect().height > 0);
        const g = gutter.getBoundingClientRect();
        return { shown: !cap.hidden, text: cap.textContent, cap: [c.top, c.bottom], row: [row.top, row.bottom], line: (g.top + g.bottom) / 2 };
      });
      assert(seen.shown && seen.text === "read status batch-42", `${w}x${h}: the caption shows: ${JSON.stringify(seen)}`);
      // Inside the current row's outline (a pixel of its border may be shared), its bottom above
      // the row's line, where the arrow runs.
      assert(seen.cap[0] >= seen.row[0] - 2, `${w}x${h}: the caption reaches above the current row: ${JSON.stringify(seen)}`);
      assert(seen.cap[1] <= seen.line + 1, `${w}x${h}: the caption covers the arrow: ${JSON.stringify(seen)}`);
      await shot(page, `caption-in-row-redlock-gc-pause-24-${w}x${h}`);
    }
  });

  await test(browser, "on a phone the lane chips of an 8-lane run never overlap, however far it is scrolled", async (page) => {
    await page.setViewportSize({ width: 375, height: 667 });
    await page.goto(`${base}index.html#scenario=redlock-split-votes&step=30`);
    await ready(page);
    let checked = 0;
    for (let step = 31; step <= 70; step++) {
      await page.keyboard.press("ArrowRight");
      await page.waitForTimeout(60);
      if (step % 4 !== 0) continue;
      const chips = await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => {
        const heads = document.querySelector(".lane-heads");
        resolve({
          hidden: heads.hidden,
          boxes: [...heads.querySelectorAll(".lane-head")]
            .filter((c) => getComputedStyle(c).visibility !== "hidden")
            .map((c) => { const r = c.getBoundingClientRect(); return [c.querySelector("b").textContent, r.left, r.right]; })
            .sort((a, b) => a[1] - b[1]),
        });
      }))));
      if (chips.hidden) continue;
      checked++;
      for (let i = 1; i < chips.boxes.length; i++) {
        const [a, b] = [chips.boxes[i - 1], chips.boxes[i]];
        assert(a[2] <= b[1] + 0.5, `step ${step}: "${a[0]}" runs into "${b[0]}": ${JSON.stringify(chips.boxes)}`);
      }
      assert(chips.boxes.length >= 1, `step ${step}: no lane named: ${JSON.stringify(chips)}`);
    }
    assert(checked >= 5, `the kept lane names showed at only ${checked} of the steps looked at`);
    await shot(page, "phone-lane-chips-redlock-split-votes-375x667");
  });

  await test(browser, "on a phone the lease chart puts the current step two thirds across the room right of its pinned names", async (page) => {
    await page.setViewportSize({ width: 375, height: 667 });
    await page.goto(`${base}index.html#scenario=naive-gc-pause&step=22&chart=lease`);
    await page.waitForSelector(".timeline-scroller.lease .lease-pin svg");
    await page.waitForTimeout(400);
    const seen = await page.evaluate(() => {
      const s = document.querySelector(".timeline-scroller.lease");
      const box = s.getBoundingClientRect();
      const pin = s.querySelector(".lease-pin svg").getBoundingClientRect();
      const step = [...s.querySelectorAll(".page svg text")].find((t) => t.textContent.trim() === "step 22").getBoundingClientRect();
      return { pin: pin.right - box.left, step: (step.left + step.right) / 2 - box.left, width: s.clientWidth };
    });
    const want = seen.pin + (seen.width - seen.pin) * 2 / 3;
    assert(Math.abs(seen.step - want) <= 8, `the step's line at ${seen.step.toFixed(0)} px, not ${want.toFixed(0)}: ${JSON.stringify(seen)}`);
    await shot(page, "phone-lease-step-beside-names-375x667");
  });

  await test(browser, "a row holding steps with others between them lists them with commas, never as a range", async (page) => {
    await page.goto(`${base}index.html#scenario=redlock-split-votes&step=20`);
    await ready(page);
    const steps = await page.evaluate(() => [...document.querySelectorAll(".page svg text")]
      .map((t) => t.textContent.trim()).filter((t) => /^#\d/.test(t)).map((t) => t.split("│")[0].trim()));
    assert(steps.includes("#6,…,20"), `B's round is "#6,…,20": ${JSON.stringify(steps.slice(0, 8))}`);
    assert(!steps.some((s) => /\d…\d/.test(s)), `a step list reads as a range: ${JSON.stringify(steps.filter((s) => s.includes("…")))}`);
  });

  await test(browser, "Esc folds presenter mode's legend lying over the picture before it leaves presenter mode", async (page) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${base}index.html#scenario=redlock-gc-pause&step=87&present=1`);
    await ready(page);
    await page.click(".side > details.legend > summary");
    await page.waitForTimeout(200);
    const open = () => page.evaluate(() => document.querySelector(".side > details.legend").open);
    assert(await open(), "the legend opened");
    await page.keyboard.press("Escape");
    await page.waitForTimeout(300);
    assert(!(await open()), "Esc folded the legend");
    assert(await page.evaluate(() => document.querySelector(".app").classList.contains("presenter")), "still in presenter mode");
    assert((await page.evaluate(() => location.hash)).includes("present=1"), "the link still says presenter mode");
    await page.keyboard.press("Escape");
    await page.waitForFunction(() => !location.hash.includes("present=1"));
  });

  await test(browser, "stepping through a round, its label names only the answers sent so far", async (page) => {
    await page.goto(`${base}index.html#scenario=redlock-split-votes&step=32`);
    await ready(page);
    const labels = () => page.evaluate(() => [...document.querySelectorAll(".page svg text")]
      .filter((t) => getComputedStyle(t).visibility !== "hidden" && t.getClientRects().length > 0)
      .map((t) => t.textContent.trim()).filter((t) => t.startsWith("(nil): key exists")));
    const seen = {};
    for (const step of [32, 33, 34, 35, 36]) {
      if (step > 32) await page.keyboard.press("ArrowRight");
      await page.waitForFunction((n) => document.querySelector("input[aria-label='Current step']")?.value === String(n), step);
      await page.waitForTimeout(150);
      seen[step] = await labels();
    }
    const said = (step) => seen[step].join(" | ");
    assert(said(32).includes("(nil): key exists from redis-3") && !said(32).includes("redis-4"), `step 32: ${said(32)}`);
    assert(said(34).includes("×2 from redis-3, redis-4") && !said(34).includes("redis-5"), `step 34: ${said(34)}`);
    // The round's label once, on its own line: redis-4's answer in flight (#34) says only its words.
    assert(seen[34].filter((t) => t.includes("×2")).length === 1 && seen[34].includes("(nil): key exists"), `step 34: ${said(34)}`);
    assert(said(36).includes("×3 from redis-3, redis-4, redis-5"), `step 36: ${said(36)}`);
    // redis-5's answer, still in the network at 36, says what it carries on its own row.
    assert(seen[36].filter((t) => t === "(nil): key exists").length >= 2, `steps 34 and 36 name their answers: ${said(36)}`);
  });
}
