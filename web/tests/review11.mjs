// Browser tests of session 11's work on issue 7 (review-s10-web): presenter mode on a wide run
// keeps the step column pinned and moves sideways seldom, only to show both ends of the current
// step; fenced-gc-pause fits 1920 px; fitting the width shows the history above the current step;
// the zoom button covers no part of the picture; zooming the embed shows both ends of its step.
import fs from "node:fs";
import path from "node:path";
import { test, assert, ready, webDir, openZoomed, frames, readablePx } from "./harness.mjs";


/** Waits until the step box says `n`. */
const atStep = (page, n) => page.waitForFunction((n) => document.querySelector("input[aria-label='Current step']")?.value === String(n), n);

/** Where the current step is, against the timeline's window (screen pixels). */
const where = (page) => page.evaluate(() => {
  const s = document.querySelector(".timeline-scroller");
  const box = s.getBoundingClientRect();
  const svg = document.querySelector("#ls-timeline");
  const pic = svg.getBoundingClientRect();
  const scale = pic.width / svg.viewBox.baseVal.width;
  const cur = document.querySelector("rect.current-outline");
  const row = cur.getBoundingClientRect();
  const ends = cur.dataset.ends ? cur.dataset.ends.split(" ").map((x) => Number(x) * scale + pic.left) : null;
  const pin = document.querySelector(".pin").getBoundingClientRect();
  // The step column's pointer at the current step (bold number and ▶), in the pinned copy.
  const pointer = document.querySelector(".pin #ls-gutter-live polygon")?.getBoundingClientRect();
  const inBox = (r) => r && r.width > 0 && r.left >= box.left - 1 && r.right <= box.right + 1 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
  const hints = [...document.querySelectorAll(".lanes-off span")].filter((e) => !e.hidden).map((e) => e.textContent);
  // How far below the window's top the picture's lane headers are (presenter mode follows a step
  // no higher than just above them: see follow.rs `title_floor`).
  const headTops = [...document.querySelectorAll(".page [data-layer=lanes] text")]
    .filter((t) => t.getClientRects().length).map((t) => t.getBoundingClientRect().top);
  return {
    headsAt: Math.min(...headTops) - box.top,
    left: s.scrollLeft, top: s.scrollTop, wide: s.scrollWidth > s.clientWidth + 1,
    rowIn: row.top >= box.top - 1 && row.bottom <= box.bottom + 1,
    rowMid: ((row.top + row.bottom) / 2 - box.top) / box.height,
    ends, endsIn: !ends || (ends[0] >= pin.right - 1 && ends[1] <= box.right + 1),
    endsFit: !ends || ends[1] - ends[0] <= box.right - pin.right,
    pinIn: pin.left >= box.left - 1 && pin.left <= box.left + 2,
    pointerIn: inBox(pointer), hints,
    label: 16 * scale,
  };
});

/** The zoom button's box and the current row's box overlap. */
const buttonCoversRow = (page) => page.evaluate(() => {
  const b = document.querySelector("[data-testid=zoom]").getBoundingClientRect();
  const s = document.querySelector(".timeline-scroller").getBoundingClientRect();
  const r = document.querySelector("rect.current-outline").getBoundingClientRect();
  // The row as the window shows it.
  const row = { left: Math.max(r.left, s.left), right: Math.min(r.right, s.right), top: Math.max(r.top, s.top), bottom: Math.min(r.bottom, s.bottom) };
  return b.left < row.right && b.right > row.left && b.top < row.bottom && b.bottom > row.top;
});

export async function review11Tests(browser, base, shot) {
  await test(browser, "presenter mode on a wide run: the step column stays pinned, and the view moves sideways seldom, only to show both ends of the current step", async (page) => {
    // Too wide for its readable labels at 1280x720 (at 1920x1080 it now fits, see review16.mjs).
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`${base}index.html#scenario=redlock-split-votes&step=40&present=1`);
    await ready(page);
    await page.waitForSelector(".app.presenter .timeline-scroller.zoom-readable");
    await frames(page);
    await page.waitForTimeout(400);
    let was = await where(page);
    assert(was.wide && was.label >= readablePx(720), `readable and wider than the screen: ${JSON.stringify(was)}`);
    const moves = [];
    let hinted = 0;
    for (let step = 41; step <= 70; step++) {
      await page.keyboard.press("ArrowRight");
      await atStep(page, step);
      await frames(page);
      const early = (await where(page)).left;
      await page.waitForTimeout(450);
      const now = await where(page);
      const moved = Math.abs(now.left - was.left);
      if (moved > 1) moves.push(Math.round(now.left - was.left));
      // A long move sideways jumps: it is complete two frames after the key.
      assert(moved <= 160 || Math.abs(early - now.left) <= 1, `step ${step}: a ${moved} px move glided (${early} two frames in, ${now.left} at rest)`);
      assert(now.rowIn, `step ${step}: the current row is out of view vertically: ${JSON.stringify(now)}`);
      assert(now.pinIn && now.pointerIn, `step ${step}: the step column or its current-step marker is out of view: ${JSON.stringify(now)}`);
      if (now.endsFit) assert(now.endsIn, `step ${step}: an end of the current step is out of view: ${JSON.stringify(now)}`);
      if (now.hints.length) hinted++;
      if (step === 46) await shot(page, "presenter-wide-redlock-split-votes-46-1920x1080");
      if (step === 70) await shot(page, "presenter-wide-redlock-split-votes-70-1920x1080");
      was = now;
    }
    console.log(`      30 steps, ${moves.length} moves sideways: ${moves.join(", ")}`);
    assert(moves.length <= 8, `too many moves sideways in 30 steps: ${moves.join(", ")}`);
    assert(hinted > 0, "no hint named the lanes out of view");
  });

  await test(browser, "presenter mode fits fenced-gc-pause in 1920x1080 without scrolling sideways, its labels 15 px or more", async (page) => {
    for (const step of ["0", "20", "end"]) {
      await page.goto(`${base}index.html?s=${step}#scenario=fenced-gc-pause&step=${step}&present=1`);
      await ready(page);
      await page.waitForSelector(".app.presenter .timeline-scroller.zoom-readable");
      await frames(page);
      await page.waitForTimeout(300);
      const now = await where(page);
      assert(!now.wide && now.left === 0, `step ${step}: scrolls sideways: ${JSON.stringify(now)}`);
      assert(now.label >= 15, `step ${step}: labels ${now.label.toFixed(1)} px`);
      if (step === "end") await shot(page, "presenter-fenced-gc-pause-end-1920x1080");
    }
  });

  await test(browser, "fitting the width shows the current step with as much history as fits above it", async (page) => {
    for (const [id, step] of [["redlock-split-votes", 42], ["consensus-fenced-failover", 32]]) {
      await page.goto(`${base}index.html?${id}#scenario=${id}&step=${step}&present=1`);
      await ready(page);
      await page.waitForSelector(".timeline-scroller.zoom-readable");
      await frames(page);
      await page.waitForTimeout(500);
      await page.keyboard.press("z");
      await page.waitForSelector(".timeline-scroller.zoom-fit");
      await frames(page);
      await page.waitForTimeout(500);
      const now = await where(page);
      const room = await page.evaluate(() => {
        const s = document.querySelector(".timeline-scroller");
        return s.scrollHeight - s.clientHeight;
      });
      console.log(`      ${id} fitted: the current row ${(now.rowMid * 100).toFixed(0)}% down the window, scrollTop ${now.top} of ${room}`);
      assert(now.rowIn, `${id}: the current row is out of view after fitting: ${JSON.stringify(now)}`);
      // The rows before it fill the window above it: it sits low in the window, unless the
      // picture's top is in view (nothing more to show above: presenter mode shows the lanes'
      // headers at the window's top, not the title block above them).
      assert(now.headsAt >= 0 && now.headsAt < 90 || now.rowMid >= 0.7,
        `${id}: the current row is ${(now.rowMid * 100).toFixed(0)}% down the window, scrolled ${now.top} px, lane headers ${now.headsAt.toFixed(0)} px down`);
      await shot(page, `presenter-fit-${id}-${step}-1920x1080`);
    }
  });

  await test(browser, "the zoom button sits in the control strip and never covers the current step's row", async (page) => {
    await page.goto(`${base}index.html#scenario=fenced-gc-pause&step=20&present=1`);
    await ready(page);
    await frames(page);
    await page.waitForTimeout(400);
    for (const step of [20, 21, 33, 34]) {
      if (step !== 20) {
        await page.fill("input[aria-label='Current step']", String(step));
        await page.press("input[aria-label='Current step']", "Enter");
        await atStep(page, step);
        await frames(page);
        await page.waitForTimeout(400);
      }
      assert(await page.locator(".controls [data-testid=zoom]").count() === 1, "the zoom button is in the control strip");
      assert(!(await buttonCoversRow(page)), `presenter step ${step}: the zoom button covers the current row`);
    }
    await shot(page, "presenter-fenced-gc-pause-34-zoom-button-1920x1080");
    // A frame that opens on the whole width (narrower ones open zoomed in).
    await page.setViewportSize({ width: 1100, height: 450 });
    await page.goto(`${base}embed.html#scenario=fenced-gc-pause&step=33&controls=minimal`);
    await ready(page);
    await frames(page);
    await page.waitForTimeout(300);
    assert(!(await buttonCoversRow(page)), "embed 1100x450 step 33: the zoom button covers the current row");
    await page.click("[data-testid=zoom]");
    await page.waitForSelector(".timeline-scroller.zoom-readable");
    await frames(page);
    await page.waitForTimeout(400);
    assert(!(await buttonCoversRow(page)), "embed 1100x450 step 33 zoomed in: the zoom button covers the current row");
  });

  await test(browser, "zooming the embed in shows both ends of the current step and its step number", async (page) => {
    await page.setViewportSize({ width: 800, height: 450 });
    for (const [id, step] of [["fenced-gc-pause", 33], ["fenced-gc-pause", 34], ["redlock-split-votes", 70]]) {
      await openZoomed(page, `${base}embed.html?${id}-${step}#scenario=${id}&step=${step}&controls=minimal`, 600);
      const now = await where(page);
      assert(now.rowIn && now.pointerIn, `${id} ${step}: the current row or its step number is out of view: ${JSON.stringify(now)}`);
      assert(!now.endsFit || now.endsIn, `${id} ${step}: an end of the current step is out of view: ${JSON.stringify(now)}`);
      assert(now.label >= 10, `${id} ${step}: zoomed labels ${now.label.toFixed(1)} px`);
      await shot(page, `embed-zoomed-${id}-${step}-800x450`);
      // One step on, still both ends.
      await page.keyboard.press("ArrowRight");
      await atStep(page, step + 1);
      await frames(page);
      await page.waitForTimeout(600);
      const next = await where(page);
      assert(next.rowIn && next.pointerIn && (!next.endsFit || next.endsIn), `${id} ${step + 1}: ${JSON.stringify(next)}`);
    }
    // On a phone the step column would take half the frame: it scrolls away with the picture.
    await page.setViewportSize({ width: 375, height: 667 });
    // (Step 33: the database refuses, at the right; at step 34 A, at the left, receives it.)
    await page.goto(`${base}embed.html?phone#scenario=fenced-gc-pause&step=33&controls=minimal`);
    await ready(page);
    // It opens zoomed in.
    await page.waitForSelector(".timeline-scroller.zoom-readable");
    await frames(page);
    await page.waitForTimeout(600);
    const phone = await page.evaluate(() => {
      const s = document.querySelector(".timeline-scroller");
      const pin = document.querySelector(".pin-box").getBoundingClientRect();
      return { unpinned: s.hasAttribute("data-unpinned"), left: s.scrollLeft, pinRight: pin.right, boxLeft: s.getBoundingClientRect().left };
    });
    assert(phone.unpinned && phone.left > 0 && phone.pinRight <= phone.boxLeft + 1, `the phone's zoomed embed pins the step column: ${JSON.stringify(phone)}`);
    await shot(page, "embed-phone-zoomed-fenced-33-unpinned-375x667");
  });
}

export async function review11MoreTests(browser, base, shot) {
  await test(browser, "presenter mode's legend shows every entry without scrolling", async (page) => {
    for (const step of [20, 33, "end"]) {
      await page.goto(`${base}index.html?legend-${step}#scenario=fenced-gc-pause&step=${step}&present=1`);
      await ready(page);
      await frames(page);
      await page.waitForTimeout(300);
      // Folded into a button at the strip's end (session 30: in the strip its entries were 9-10 px).
      await page.click(".presenter .side > details.legend > summary");
      await page.waitForTimeout(150);
      const legend = await page.evaluate(() => {
        const panel = document.querySelector(".legend");
        const box = panel.getBoundingClientRect();
        const items = [...panel.querySelectorAll("li")];
        const cut = items.filter((li) => li.getBoundingClientRect().bottom > box.bottom + 1).map((li) => li.textContent.trim());
        return { items: items.length, cut, scroll: panel.scrollHeight - panel.clientHeight };
      });
      assert(legend.items > 3 && !legend.cut.length && legend.scroll <= 1, `step ${step}: the legend is cut: ${JSON.stringify(legend)}`);
      if (step === 33) await shot(page, "presenter-legend-fenced-gc-pause-33-1920x1080");
    }
  });

  await test(browser, "the timeline takes the keyboard: Tab reaches it, ↑ ↓ pick an event with its explanation shown, Enter jumps to it", async (page) => {
    await page.goto(`${base}index.html#scenario=fenced-gc-pause&step=20`);
    await ready(page);
    await frames(page);
    // The skip link is the first stop, and it focuses the timeline.
    await page.keyboard.press("Tab");
    assert(await page.evaluate(() => document.activeElement?.textContent === "Skip to the run"), "the first Tab reaches the skip link");
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.activeElement?.classList.contains("timeline-scroller"));
    assert((await page.evaluate(() => location.hash)).startsWith("#scenario=fenced-gc-pause"), "the skip link keeps the share link's hash");
    const focus = await page.evaluate(() => {
      const s = document.activeElement;
      const o = getComputedStyle(s);
      return { outline: o.outlineStyle, width: parseFloat(o.outlineWidth), card: document.querySelector(".hover-card")?.textContent ?? "" };
    });
    assert(focus.outline !== "none" && focus.width >= 2, `the focused timeline shows its focus: ${JSON.stringify(focus)}`);
    assert(focus.card.startsWith("Step 20"), `focusing the timeline explains the current step: ${JSON.stringify(focus)}`);
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowUp");
    const card = await page.evaluate(() => ({
      card: document.querySelector(".hover-card")?.textContent ?? "",
      band: Number(document.querySelector(".hits .hover-band")?.getAttribute("height") ?? 0),
      step: document.querySelector("input[aria-label='Current step']").value,
    }));
    assert(card.card.startsWith("Step 17") && card.band > 0 && card.step === "20",
      `↑ ↓ pick an earlier event without stepping, explained as on hover: ${JSON.stringify(card)}`);
    await shot(page, "timeline-keyboard-pick-17-1920x1080");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await atStep(page, 18);
    // A mouse user's click on the timeline leaves ↓ to step by rows, as before.
    await page.evaluate(() => document.activeElement.blur());
    await page.click(".page", { position: { x: 5, y: 5 } });
    assert(await page.evaluate(() => document.activeElement?.classList.contains("timeline-scroller")), "a click focuses the timeline");
    await page.keyboard.press("ArrowDown");
    await page.waitForFunction(() => Number(document.querySelector("input[aria-label='Current step']").value) > 18);
  });

  await test(browser, "the skip link is not on the picker", async (page) => {
    await page.goto(`${base}index.html`);
    await page.waitForSelector(".picker");
    assert(await page.locator("a.skip").count() === 0, "the picker has a skip link, with no run to skip to");
  });

  await test(browser, "a pasted scenario's error selects its line in the box", async (page) => {
    await page.goto(`${base}index.html`);
    await page.waitForSelector(".picker");
    const good = fs.readFileSync(path.join(webDir, "..", "assets", "scenarios", "naive-gc-pause.toml"), "utf8").split("\n");
    // An unquoted string on line 30 of a long file.
    const bad = [...good.slice(0, 29), "oops = unquoted words", ...good.slice(29)].join("\n");
    await page.locator(".upload summary").click();
    await page.fill(".upload textarea", bad);
    await page.click("text=Run it");
    await page.waitForSelector("[data-testid=upload-error]");
    await page.waitForTimeout(200);
    const err = await page.locator("[data-testid=upload-error]").textContent();
    assert(err.startsWith("pasted.toml:30:"), `the error names line 30: ${err}`);
    const sel = await page.evaluate(() => {
      const t = document.querySelector(".upload textarea");
      const lineHeight = t.scrollHeight / t.value.split("\n").length;
      return { text: t.value.slice(t.selectionStart, t.selectionEnd), focused: document.activeElement === t,
        shown: 29 * lineHeight >= t.scrollTop - 1 && 30 * lineHeight <= t.scrollTop + t.clientHeight + 1 };
    });
    assert(sel.text === "oops = unquoted words" && sel.focused && sel.shown, `the bad line is selected and in view: ${JSON.stringify(sel)}`);
    await shot(page, "toml-error-line-1920x1080");
  });

  await test(browser, "an odd but legal pasted scenario runs and says what is odd, also from its link", async (page) => {
    await page.goto(`${base}index.html`);
    await page.waitForSelector(".picker");
    const src = fs.readFileSync(path.join(webDir, "..", "assets", "scenarios", "consensus-fenced-failover.toml"), "utf8")
      .replace('name = "consensus-fenced-failover"', 'name = "two-nodes"').replace(/^nodes = 3$/m, "nodes = 2");
    await page.locator(".upload summary").click();
    await page.fill(".upload textarea", src);
    await page.click("text=Run it");
    await ready(page);
    const notice = await page.locator(".notice").textContent();
    assert(/pasted\.toml:\d+:\d+: lock\.nodes: 2 nodes need 2 for a quorum: they tolerate no failure/.test(notice), `the warning is located: ${notice}`);
    assert(await page.locator(".notice.error").count() === 0, "a warning is not an error");
    await page.keyboard.press("End");
    await page.waitForFunction(() => location.hash.includes("&src="));
    const again = await page.context().newPage();
    await again.goto(page.url());
    await ready(again);
    assert((await again.locator(".notice").textContent()).includes("lock.nodes: 2 nodes need 2 for a quorum"), "the link says it too");
    await shot(page, "own-scenario-warning-1920x1080");
  });

  await test(browser, "the current step's outline is painted beneath the arrows and their labels", async (page) => {
    await page.goto(`${base}index.html#scenario=fenced-gc-pause&step=7`);
    await ready(page);
    const order = await page.evaluate(() => {
      const svgs = [...document.querySelectorAll(".timeline-scroller svg")];
      const at = (sel) => svgs.findIndex((s) => s.querySelector(sel));
      return { outline: at("rect.current-outline"), labels: at("[data-layer=labels]"), shafts: at("[data-layer=shafts]") };
    });
    assert(order.outline >= 0 && order.outline < order.shafts && order.shafts < order.labels, `paint order: ${JSON.stringify(order)}`);
    await shot(page, "current-outline-under-labels-1920x1080");
  });

  await test(browser, "a pasted scenario whose run disagrees with its expect says so at the end", async (page) => {
    await page.goto(`${base}index.html`);
    await page.waitForSelector(".picker");
    const src = fs.readFileSync(path.join(webDir, "..", "assets", "scenarios", "fenced-gc-pause.toml"), "utf8")
      .replace('name = "fenced-gc-pause"', 'name = "wrong-expect"').replace('expect = "safe"', 'expect = "double-write"');
    await page.locator(".upload summary").click();
    await page.fill(".upload textarea", src);
    await page.click("text=Run it");
    await ready(page);
    await page.keyboard.press("End");
    await page.waitForSelector("[data-testid=expect-mismatch]");
    const line = await page.locator("[data-testid=expect-mismatch]").textContent();
    assert(line.includes("expects “double-write”, but this run ends “safe”"), line);
  });

  await test(browser, "a clicker's blank-screen key blanks presenter mode and any key brings the run back", async (page) => {
    await page.goto(`${base}index.html#scenario=fenced-gc-pause&step=5&present=1`);
    await ready(page);
    await page.keyboard.press("b");
    await page.waitForSelector("[data-testid=blank-screen]");
    const cover = await page.evaluate(() => {
      const r = document.querySelector("[data-testid=blank-screen]").getBoundingClientRect();
      return r.width >= innerWidth && r.height >= innerHeight && getComputedStyle(document.querySelector("[data-testid=blank-screen]")).backgroundColor;
    });
    assert(cover === "rgb(0, 0, 0)", `the screen is black: ${cover}`);
    // The key that brings it back does nothing else: the run stays at step 5.
    await page.keyboard.press("PageDown");
    await page.waitForSelector("[data-testid=blank-screen]", { state: "detached" });
    assert(await page.inputValue("input[aria-label='Current step']") === "5", "still at step 5");
    await page.keyboard.press(".");
    await page.waitForSelector("[data-testid=blank-screen]");
    await page.keyboard.press("Escape");
    await page.waitForSelector("[data-testid=blank-screen]", { state: "detached" });
  });
}
