// Browser tests of session 15's work on issue 7: the app leaves the picture's title block above
// the timeline's window (the header bar names the run, the explanation panel the step) while the
// embed keeps it, and a step whose legend gains or loses an entry leaves the other swatches alone.
import { test, assert, ready, text } from "./harness.mjs";

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
    // Fitted to the frame's width (from 1,030 px for this run; a narrower frame opens zoomed in).
    await page.setViewportSize({ width: 1100, height: 450 });
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

export async function review15bTests(browser, base, shot) {
  await test(browser, "after typing a step number and Enter, the clicker's keys step the run again", async (page) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${base}index.html#scenario=naive-gc-pause&present=1`);
    await ready(page);
    await page.fill(".controls input[type=number]", "20");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => /step=20\b/.test(location.hash));
    for (const [key, want] of [["ArrowRight", 21], ["Space", 22], ["PageDown", 23], ["ArrowLeft", 22]]) {
      await page.keyboard.press(key);
      await page.waitForFunction((n) => new RegExp(`step=${n}\\b`).test(location.hash), want, { timeout: 3000 })
        .catch(() => { throw new Error(`${key} after typing the step did not reach step ${want}: ${page.url()}`); });
    }
  });

  await test(browser, "presenter mode's strip keeps one layout from step 0 on, and its legend fits as it grows", async (page) => {
    const messages = [];
    page.on("console", (m) => messages.push(m.text()));
    for (const [w, h, id, upto] of [[1920, 1080, "consensus-fenced-failover", 54], [1920, 1080, "fenced-gc-pause", 36], [1280, 720, "consensus-fenced-failover", 3]]) {
      await page.setViewportSize({ width: w, height: h });
      await page.goto(`${base}index.html?strip${w}${id}#scenario=${id}&present=1`);
      await ready(page);
      await page.waitForTimeout(300);
      const info = () => page.evaluate(() => {
        const l = document.querySelector(".side > .legend");
        const e = document.querySelector(".side > .explanation .why");
        return {
          legend: !!l, legendCut: l ? l.scrollHeight - l.clientHeight : 0,
          font: e && getComputedStyle(e).fontSize,
          timeline: Math.round(document.querySelector(".timeline-scroller").getBoundingClientRect().height),
        };
      });
      const start = await info();
      assert(start.legend, `${id} ${w}x${h}: step 0 has its legend panel (it says nothing is drawn yet)`);
      for (let i = 0; i < upto; i++) {
        await page.keyboard.press("ArrowRight");
        await page.waitForTimeout(30);
      }
      await page.waitForFunction((n) => new RegExp(`step=${n}\\b`).test(location.hash), upto);
      await page.waitForTimeout(300);
      const now = await info();
      assert(now.timeline === start.timeline && now.font === start.font,
        `${id} ${w}x${h}: the timeline's height and the explanation's type stay from step 0 to ${upto}: ${JSON.stringify({ start, now })}`);
      assert(now.legendCut <= 1, `${id} ${w}x${h}: the legend fits its box at step ${upto} (reached by stepping): ${JSON.stringify(now)}`);
      await shot(page, `presenter-strip-${id}-${upto}-${w}x${h}`);
    }
    // A present=1 link does not ask for full screen before a click or key (a refusal in the console).
    assert(!messages.some((m) => m.includes("requestFullscreen")), `console: ${messages.join(" | ")}`);
  });

  await test(browser, "fitted to a 1280 px projector, an 8-lane Redlock run's lane names do not run into each other", async (page) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${base}index.html#scenario=redlock-gc-pause&step=66&present=1`);
    await ready(page);
    await page.keyboard.press("z");
    await page.waitForSelector(".timeline-scroller.zoom-fit");
    await page.waitForTimeout(400);
    const chips = await page.locator(".lane-heads .lane-head").evaluateAll((els) => els
      .map((e) => { const r = e.getBoundingClientRect(); return { name: e.textContent, left: r.left, right: r.right, px: parseFloat(getComputedStyle(e).fontSize) }; })
      .sort((a, b) => a.left - b.left));
    const overlaps = chips.slice(1).filter((c, i) => c.left < chips[i].right);
    assert(chips.length === 8 && overlaps.length === 0, `overlapping lane chips: ${JSON.stringify(overlaps.map((c) => c.name))} of ${JSON.stringify(chips)}`);
    assert(chips.every((c) => c.px >= 9), `lane chips at least 9 px: ${JSON.stringify(chips.map((c) => c.px))}`);
    await shot(page, "presenter-fit-redlock-gc-pause-66-1280x720-chips");
    // Zoomed back in, they are at their full size again.
    await page.keyboard.press("z");
    await page.waitForSelector(".timeline-scroller.zoom-readable");
    await page.waitForTimeout(400);
    const px = await page.locator(".lane-heads .lane-head").first().evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
    assert(px >= 18, `zoomed in, the lane chips are back at 1.15rem: ${px} px`);
  });

  await test(browser, "while the current step's words show in a caption, the picture's cut copy of them is hidden", async (page) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${base}index.html#scenario=redlock-gc-pause&step=24&present=1`);
    await ready(page);
    await page.waitForTimeout(400);
    const copies = () => page.evaluate(() => {
      const cap = document.querySelector(".step-caption");
      return {
        caption: cap && !cap.hidden ? cap.textContent : null,
        shown: [...document.querySelectorAll(".page svg text")]
          .filter((t) => t.textContent.trim() === "read status batch-42" && getComputedStyle(t).visibility !== "hidden")
          .map((t) => Math.round(t.getBoundingClientRect().top)),
      };
    });
    const at24 = await copies();
    assert(at24.caption === "read status batch-42", `step 24's words are in a caption by db: ${JSON.stringify(at24)}`);
    // The title block above the window names the step too; no copy on the timeline's rows shows.
    const rowTop = await page.locator("rect.current-outline").evaluate((r) => r.getBoundingClientRect().top);
    assert(at24.shown.every((y) => Math.abs(y - rowTop) > 40), `a copy of the words shows on the current row: ${JSON.stringify({ at24, rowTop })}`);
    await shot(page, "presenter-caption-redlock-gc-pause-24-1280x720");
    // Home and back: shown again when no caption stands for it.
    await page.keyboard.press("Home");
    await page.waitForTimeout(300);
    const home = await copies();
    assert(home.caption === null && home.shown.length >= 1, `at step 0 the picture's own copy is back: ${JSON.stringify(home)}`);
  });

  await test(browser, "on a phone the lease chart reads at about 9 px and opens at the current step", async (page) => {
    await page.setViewportSize({ width: 375, height: 667 });
    await page.goto(`${base}index.html#scenario=naive-gc-pause&step=33&chart=lease`);
    await page.waitForSelector(".timeline-scroller.lease .page > svg");
    await page.waitForTimeout(400);
    const v = await page.evaluate(() => {
      const s = document.querySelector(".timeline-scroller.lease");
      const box = s.getBoundingClientRect();
      const svg = s.querySelector(".page > svg");
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      const marker = [...svg.querySelectorAll("text")].find((t) => t.textContent.trim() === "step 33").getBoundingClientRect();
      return {
        words: 16 * scale, markerIn: marker.left >= box.left && marker.right <= box.right,
        blank: box.height - Math.min(box.height, svg.getBoundingClientRect().height),
      };
    });
    assert(v.words >= 8.5, `the chart's 16 px words are ${v.words.toFixed(1)} px`);
    assert(v.markerIn, `the current step's line is in view: ${JSON.stringify(v)}`);
    assert(v.blank < 40, `no blank under the chart: ${JSON.stringify(v)}`);
    await shot(page, "phone-lease-naive-gc-pause-33-375x667");
  });

  await test(browser, "the hover card stays in the window's view of a picture wider than it", async (page) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${base}index.html#scenario=fenced-gc-pause&step=41`);
    await ready(page);
    await page.waitForTimeout(300);
    const box = await page.locator(".timeline-scroller").boundingBox();
    // Hover a drawn row in the window's left half.
    const row = await page.locator("rect.current-outline").boundingBox();
    await page.mouse.move(box.x + box.width * 0.3, row.y - 60);
    await page.mouse.move(box.x + box.width * 0.3 + 5, row.y - 58);
    await page.waitForSelector(".hover-card");
    const card = await page.locator(".hover-card").boundingBox();
    assert(card.x >= box.x && card.x + card.width <= box.x + box.width + 1,
      `the card ${JSON.stringify(card)} lies inside the timeline's window ${JSON.stringify(box)}`);
    await shot(page, "hover-card-fenced-gc-pause-1440x900");
  });

  await test(browser, "S over a run opens the picker with the filter ready for typing", async (page) => {
    await page.goto(`${base}index.html#scenario=fenced-gc-pause&step=3`);
    await ready(page);
    await page.keyboard.press("s");
    await page.waitForSelector(".picker");
    await page.keyboard.type("consensus");
    const value = await page.locator(".picker input[type=search]").inputValue();
    assert(value === "consensus", `the filter holds "${value}"`);
    const shown = await page.locator(".scenario:visible").count();
    assert(shown > 0, "the filter leaves the consensus scenarios");
  });

  await test(browser, "outside presenter mode too, Z and the button fit a wide run to the window and zoom back", async (page) => {
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${base}index.html#scenario=consensus-fenced-failover&step=40`);
    await ready(page);
    await page.waitForTimeout(300);
    const wide = () => page.evaluate(() => {
      const s = document.querySelector(".timeline-scroller");
      return { wide: s.scrollWidth > s.clientWidth + 1, button: !!document.querySelector(".controls .zoom")?.offsetParent };
    });
    const before = await wide();
    assert(before.wide && before.button, `a wide run offers the zoom: ${JSON.stringify(before)}`);
    await page.keyboard.press("z");
    await page.waitForSelector(".timeline-scroller.zoom-fit");
    await page.waitForTimeout(300);
    const fitted = await wide();
    assert(!fitted.wide && fitted.button, `Z fits every lane in the window and the button zooms back: ${JSON.stringify(fitted)}`);
    assert(await page.locator("rect.current-outline").isVisible(), "the current step stays shown");
    await page.click(".controls .zoom");
    await page.waitForSelector(".timeline-scroller.zoom-readable");
    await page.waitForTimeout(300);
    assert((await wide()).wide, "the button zooms back in to readable labels");
    // A run that fits has nothing to zoom: no button.
    await page.goto(`${base}index.html#scenario=naive-happy-path&step=3`);
    await page.setViewportSize({ width: 1920, height: 1080 });
    await ready(page);
    await page.waitForTimeout(300);
    const small = await wide();
    assert(small.wide || !small.button, `a run that fits shows no zoom button: ${JSON.stringify(small)}`);
  });

  await test(browser, "an embed says which parts of its link it ignored; a damaged what-if opens the run as written", async (page) => {
    const warnings = [];
    page.on("console", (m) => { if (m.type() === "warning") warnings.push(m.text()); });
    await page.setViewportSize({ width: 640, height: 400 });
    await page.goto(`${base}embed.html#scenario=fenced-gc-pause&step=zz&controls=weird`);
    await ready(page);
    const note = await text(page, ".embed-notice");
    assert(note.includes("step=zz") && note.includes("controls=weird"), `the embed names the ignored parts: ${note}`);
    assert(warnings.some((w) => w.includes("step=zz")), `and warns in the console for the docs author: ${warnings}`);
    await page.click(".embed-notice button");
    assert(!(await page.locator(".embed-notice").count()), "the reader can dismiss it");
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${base}index.html#scenario=fenced-gc-pause&step=5&whatif=garbage!!`);
    await ready(page);
    const why = await text(page, ".notice");
    assert(why.includes("whatif") && why.includes("cut or edited") && !/base64|Invalid symbol/.test(why), `plain words: ${why}`);
    assert((await text(page, ".run-title")).includes("Fencing tokens"), "the scenario opens");
  });
}
