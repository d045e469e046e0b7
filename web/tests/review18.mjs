// Browser tests of session 18's work on issue 7: the step column as large as the notes and the
// current step's outline clear of the line above, the minimal embed naming its step, and a phone's
// lease chart keeping its title and legend readable while it shows the current step.
import { test, assert, ready, fitZoom } from "./harness.mjs";

export async function review18Tests(browser, base, shot) {
  // Session 30: presenter mode no longer fits fenced-gc-pause to 1280 px (its labels were 11 px);
  // Z fits it, and there the step column must still be nearly as large as the labels.
  await test(browser, "fitted to a 1280x720 projector, the step column is drawn nearly as large as the labels", async (page) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${base}index.html#scenario=fenced-gc-pause&step=16&present=1`);
    await ready(page);
    await page.waitForTimeout(400);
    await fitZoom(page);
    await page.waitForTimeout(400);
    const seen = await page.evaluate(() => {
      const s = document.querySelector(".timeline-scroller");
      const svg = document.querySelector(".page svg");
      const scale = svg.getBoundingClientRect().width / Number(svg.getAttribute("viewBox").split(" ")[2]);
      const size = (t) => Number(t.getAttribute("font-size")) * scale;
      const texts = [...document.querySelectorAll(".page svg text")];
      const steps = texts.filter((t) => t.textContent.trim().startsWith("#")).map(size);
      const labels = texts.filter((t) => t.textContent.includes("FCALL")).map(size);
      return { sideways: s.scrollWidth > s.clientWidth + 1, step: Math.min(...steps), label: Math.min(...labels) };
    });
    assert(!seen.sideways, `fenced-gc-pause fits 1280 px: ${JSON.stringify(seen)}`);
    // 14 px in a 16 px picture was 9.6 px here.
    assert(seen.step >= 10.2 && seen.step >= seen.label * 0.93, `the step column's text: ${JSON.stringify(seen)}`);
    await shot(page, "step-column-size-fenced-gc-pause-1280x720");
  });

  await test(browser, "the current step's outline keeps off the step and time of the line above, and is drawn over the danger band", async (page) => {
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(`${base}index.html#scenario=redlock-gc-pause&step=25&present=1`);
    await ready(page);
    await page.waitForTimeout(400);
    const seen = await page.evaluate(() => {
      // The outline's edge over the step column: its path's first point, the middle of a 3 px stroke.
      const f = document.querySelector(".current-frame");
      const [x, y] = f.getAttribute("d").slice(1).split(" ").map(Number);
      const p = new DOMPoint(x, y - 1.5).matrixTransform(f.getScreenCTM());
      const above = [...document.querySelectorAll(".page svg text")].find((t) => t.textContent.trim().startsWith("#23-24") && t.getBoundingClientRect().height > 0);
      // The glyphs' box: the text's middle plus half its font size (the text box has the
      // font's whole line height).
      const a = above.getBoundingClientRect();
      const svg = document.querySelector(".page svg");
      const scale = svg.getBoundingClientRect().width / Number(svg.getAttribute("viewBox").split(" ")[2]);
      const ink = (a.top + a.bottom) / 2 + Number(above.getAttribute("font-size")) * scale / 2;
      return { outlineTop: p.y, inkBottom: ink };
    });
    assert(seen.outlineTop >= seen.inkBottom, `the outline's top edge runs through '#23-24': ${JSON.stringify(seen)}`);
    // A line of two steps is bold at its second step too (its text is on its first).
    await page.keyboard.press("ArrowLeft");
    await page.waitForTimeout(400);
    const bold = await page.evaluate(() => [...document.querySelectorAll(".page svg text")]
      .filter((t) => t.textContent.trim().startsWith("#23-24") && t.getBoundingClientRect().height > 0)
      .map((t) => t.getAttribute("font-weight")));
    assert(bold.length === 1 && bold[0] === "bold", `the current line's step and time at #24: ${JSON.stringify(bold)}`);
    await shot(page, "outline-clear-of-line-above-redlock-gc-pause-25-1920x1080");
    // Where both workers believe they hold the lock the outline is drawn over the hatched band,
    // dark, not beneath it in dark red.
    await page.goto(`${base}index.html#scenario=naive-gc-pause&step=22&present=1`);
    await ready(page);
    await page.waitForTimeout(400);
    const order = await page.evaluate(() => {
      const svgs = [...document.querySelectorAll(".timeline-scroller svg")];
      const frame = svgs.findIndex((s) => s.querySelector(".current-frame")?.getAttribute("d"));
      const at = (layer) => svgs.findIndex((s) => s.querySelector(`[data-layer=${layer}]`));
      return { frame, overlap: at("overlap"), labels: at("labels") };
    });
    assert(order.frame >= 0 && order.frame > order.overlap && order.frame < order.labels, `paint order: ${JSON.stringify(order)}`);
  });

  await test(browser, "the minimal embed says which step it shows and what happens there, zoomed in on a phone too", async (page) => {
    await page.setViewportSize({ width: 375, height: 667 });
    await page.goto(`${base}embed.html#scenario=fenced-gc-pause&step=16&controls=minimal`);
    await page.waitForSelector(".embed .page svg");
    // A phone-sized embed opens zoomed in (readable labels at the current step).
    await page.waitForSelector(".timeline-scroller.zoom-readable");
    await page.waitForTimeout(400);
    const line = () => page.evaluate(() => {
      const p = document.querySelector(".embed .step-line");
      const r = p.getBoundingClientRect();
      return { text: p.textContent, inView: r.top >= 0 && r.bottom <= innerHeight && r.height > 0 };
    });
    let seen = await line();
    assert(seen.inView && seen.text.includes("Step 16 of 41") && seen.text.includes("B holds the lock (token 34)"), JSON.stringify(seen));
    // Whole on a phone, on a second line if need be, not cut short.
    const whole = await page.evaluate(() => { const p = document.querySelector(".embed .step-line"); return p.scrollWidth <= p.clientWidth + 1 && p.scrollHeight <= p.clientHeight + 1; });
    assert(whole, "the step line is cut on a phone");
    await shot(page, "embed-minimal-step-line-zoomed-375x667");
    await page.click("button[aria-label^=\"Step forward\"]");
    await page.waitForTimeout(300);
    seen = await line();
    assert(seen.text.includes("Step 17 of 41"), `after a step forward: ${JSON.stringify(seen)}`);
    // The full embed has its explanation panel instead, and no line.
    await page.goto(`${base}embed.html#scenario=fenced-gc-pause&step=16&controls=full`);
    await page.waitForSelector(".embed .page svg");
    assert(await page.locator(".embed .step-line").count() === 0, "a step line in the full embed");
  });

  await test(browser, "on a phone the lease chart keeps its title's start and its whole legend readable", async (page) => {
    await page.setViewportSize({ width: 375, height: 667 });
    await page.goto(`${base}index.html#scenario=naive-gc-pause&step=22&chart=lease`);
    await page.waitForSelector(".timeline-scroller.lease .lease-bands svg");
    await page.waitForTimeout(400);
    const seen = () => page.evaluate(() => {
      const s = document.querySelector(".timeline-scroller.lease");
      const box = s.getBoundingClientRect();
      // Each band is a copy of the whole chart cut to its part: the title's first, the legend's last.
      const find = (band, words) => [...s.querySelectorAll(`.lease-bands > div:${band}-child svg text`)].find((t) => t.textContent.includes(words))?.getBoundingClientRect();
      const title = find("first", "Who holds the lock?");
      const right = find("last", "the current step");
      const left = find("last", "the service records the worker as holder");
      return { scrolled: s.scrollLeft, left: box.left, right: box.left + s.clientWidth, title: title && title.left, rightCol: right && right.right, leftCol: left && left.left };
    });
    let at = await seen();
    assert(at.scrolled > 0, `the chart scrolled to the step: ${JSON.stringify(at)}`);
    assert(Math.abs(at.title - at.left) < 30, `the title starts at the window's left: ${JSON.stringify(at)}`);
    assert(at.rightCol <= at.right + 1, `the legend's right column in view: ${JSON.stringify(at)}`);
    await shot(page, "phone-lease-title-and-legend-375x667");
    // Scrolled back to the start, the legend's left column reads from its start.
    await page.evaluate(() => { document.querySelector(".timeline-scroller.lease").scrollLeft = 0; });
    await page.waitForTimeout(200);
    at = await seen();
    assert(at.leftCol >= at.left, `the legend's left column from its start: ${JSON.stringify(at)}`);
    // At step 38 the plot has words of its own between its rows and its axis ("B done") and a
    // mark over its top ("paid twice"): the kept title and legend cover neither, nor the axis.
    await page.goto(`${base}index.html#scenario=naive-gc-pause&step=38&chart=lease`);
    await page.waitForSelector(".timeline-scroller.lease .lease-bands svg");
    await page.waitForTimeout(400);
    const cover = await page.evaluate(() => {
      const s = document.querySelector(".timeline-scroller.lease");
      const bands = [...s.querySelectorAll(".lease-bands > div > svg")].map((b) => b.getBoundingClientRect());
      const plot = [...s.querySelectorAll(".page svg text")].filter((t) => ["B done", "paid twice", "8 s", "10 s"].includes(t.textContent.trim()));
      return plot.map((t) => {
        const r = t.getBoundingClientRect();
        const mid = (r.top + r.bottom) / 2;
        return [t.textContent.trim(), bands.some((b) => mid > b.top && mid < b.bottom && r.right > b.left && r.left < b.right)];
      });
    });
    assert(cover.length === 4 && cover.every(([, hidden]) => !hidden), `the plot's words under a kept band: ${JSON.stringify(cover)}`);
  });
}
